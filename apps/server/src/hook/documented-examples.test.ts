// Every order the documentation page and the playground show for the paper broker, taken from the
// functions the page renders (shownOrders, sampleOrders), posted to a test hook and to a live
// hook; and the response samples the page shows, as the hook answers: docs and answers cannot drift.
import {
  ANSWER_STATUSES,
  type DocumentedOrder,
  defaultExamplePayload,
  firstActionFor,
  type Provider,
  playgroundChoices,
  providerActions,
  SAMPLE_ERROR_RESPONSE,
  SAMPLE_SUCCESS_RESPONSE,
  sampleOrders,
  shownOrders,
  withCurrentExamples,
} from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { postSignal, setupTrader } from '../../test/signal-fixtures.ts';

let t: TestApp;
let paper: Provider;
beforeAll(async () => {
  t = await startTestApp({ env: { HOOK_RATE_PER_HOOK: '0' } });
  const provider = t.services.brokers.providers().find((each) => each.name === 'paper');
  if (!provider) throw new Error('no paper provider');
  paper = withCurrentExamples(provider, Date.now()); // As the GraphQL API serves it to the page.
});
afterAll(() => t.close());

/** The orders a hook does not answer 201 with one of `statuses`, with its answer. */
async function misanswered(shortKey: string, orders: DocumentedOrder[], statuses: readonly string[]) {
  const wrong: Array<{ name: string; code: number; body: unknown }> = [];
  for (const [name, json] of orders) {
    const res = await postSignal(t, shortKey, json, 'text/plain');
    if (res.statusCode !== 201 || !statuses.includes(res.json().status)) {
      wrong.push({ name, code: res.statusCode, body: res.json() });
    }
  }
  return wrong;
}

describe('the documentation page and playground for the paper broker', () => {
  it('shows orders a test hook answers as a draft', async () => {
    const test = await setupTrader(t, 'docs-test@example.com', { isTest: true, credits: 0 });
    const orders = [...shownOrders(paper), ...sampleOrders(paper)];
    expect(await misanswered(test.shortKey, orders, ANSWER_STATUSES.test)).toEqual([]);
  });

  it('shows the payload, examples and alerts a live hook places, answered as the Success (201) sample', async () => {
    const live = await setupTrader(t, 'docs-live@example.com', { credits: 100 });
    // The TradingView examples sell: hold something to sell first.
    expect((await postSignal(t, live.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 50 })).statusCode).toBe(201);
    const shown = shownOrders(paper).filter(([name]) => !name.startsWith('symbol example'));
    expect(await misanswered(live.shortKey, shown, ANSWER_STATUSES.order)).toEqual([]);
    const res = await postSignal(t, live.shortKey, defaultExamplePayload(paper));
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(SAMPLE_SUCCESS_RESPONSE).sort());
  });

  it('shows, for each class and type, an entry a fresh live account places, and a cancel answered as canceled', async () => {
    for (const orderClass of playgroundChoices(paper).classes) {
      const classes = [orderClass];
      for (const entry of sampleOrders(paper, { classes, actions: (each) => [firstActionFor(each)] })) {
        const live = await setupTrader(t, `docs-${entry[0].replaceAll(' ', '-')}@example.com`, { credits: 5 });
        expect(await misanswered(live.shortKey, [entry], ANSWER_STATUSES.order)).toEqual([]);
      }
      const cancels = (each: typeof orderClass) => providerActions(paper.reference, each).filter((a) => a === 'cancel');
      const live = await setupTrader(t, `docs-${orderClass}-cancel@example.com`, { credits: 5 });
      const cancel = sampleOrders(paper, { classes, actions: cancels }).slice(0, 1);
      expect(await misanswered(live.shortKey, cancel, ANSWER_STATUSES.cancel)).toEqual([]);
    }
  });

  it('answers an order without a symbol with the Error (400) sample, word for word', async () => {
    const live = await setupTrader(t, 'docs-error@example.com');
    const { symbol: _symbol, ...withoutSymbol } = defaultExamplePayload(paper);
    const res = await postSignal(t, live.shortKey, withoutSymbol);
    expect({ code: res.statusCode, body: res.json() }).toEqual({ code: 400, body: SAMPLE_ERROR_RESPONSE });
    // "broker messages are prefixed with the broker's title"
    const unknown = await postSignal(t, live.shortKey, { ...withoutSymbol, symbol: 'QQQQQZ' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(new RegExp(`^${paper.title}: `));
  });
});
