// Every order each broker's documentation page and playground show, as its test hook takes it:
// the order language with the broker's descriptor, then the broker's own checks (checkOrder), as
// apps/server's preview and test hook run them. (The hook test posts paper's to real hooks.)
import { normalizeOrder, sampleOrders, shownOrders, withCurrentExamples } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerModules } from '../discover.ts';
import { toProvider } from './registry.ts';
import { isUnavailable } from './unavailable.ts';

const NOW = Date.UTC(2026, 10, 27, 15);
// A broker's own check reads the real clock (paper refuses an option past its expiry): it sees NOW too.
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterAll(() => vi.useRealTimers());
const brokers = (await Promise.all(brokerModules.map((module) => module.load()))).filter(
  (broker) => !isUnavailable(broker.descriptor),
);

describe.each(brokers.map((broker) => [broker.descriptor.name, broker] as const))('%s', (_name, broker) => {
  it('shows only orders its test hook takes', () => {
    const provider = withCurrentExamples(toProvider(broker.descriptor), NOW);
    const refused: string[] = [];
    for (const [name, json] of [...shownOrders(provider, NOW), ...sampleOrders(provider, { now: NOW })]) {
      const normalized = normalizeOrder(json, { provider: broker.descriptor, now: () => NOW });
      try {
        if (!normalized.ok) throw new Error(normalized.error.message);
        broker.checkOrder?.({ accountId: 'A-1', order: normalized.order, clientOrderId: 'docs-1' });
      } catch (error) {
        refused.push(`${name}: ${(error as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });
});
