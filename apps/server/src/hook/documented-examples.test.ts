// Every order the documentation page and the playground show for the paper broker, taken from the
// same functions the page renders, posted to a test hook and to a live hook: the docs and the
// hook's answers cannot drift apart.
import {
  ANSWER_STATUSES,
  alertJson,
  alertMessages,
  buildSampleOrder,
  defaultExamplePayload,
  exampleJson,
  fillPlaceholders,
  firstActionFor,
  isExampleAvailable,
  ORDER_EXAMPLES,
  type OrderAction,
  type OrderClass,
  type Provider,
  playgroundChoices,
  providerActions,
  SAMPLE_ERROR_RESPONSE,
  SAMPLE_SUCCESS_RESPONSE,
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

type Shown = [name: string, json: string];

/** The playground's sample order for each class, type and action it offers. */
function samples(orderClass?: OrderClass, actions?: (orderClass: OrderClass) => readonly OrderAction[]): Shown[] {
  const shown: Shown[] = [];
  for (const each of orderClass ? [orderClass] : playgroundChoices(paper).classes) {
    for (const type of playgroundChoices(paper, each).types) {
      for (const action of actions?.(each) ?? providerActions(paper.reference, each)) {
        const sample = buildSampleOrder({ provider: paper, class: each, type, action });
        shown.push([`sample ${each} ${type} ${action}`, JSON.stringify(sample, null, 2)]);
      }
    }
  }
  return shown;
}

/** The default payload, the examples and the platform alerts the page shows. */
function documented(): Shown[] {
  const examples = ORDER_EXAMPLES.filter((example) => isExampleAvailable(example, paper)).map(
    (example): Shown => [`example ${example.id}`, exampleJson(example, paper)],
  );
  const alerts = alertMessages(paper).map((message): Shown => [`alert ${message.id}`, alertJson(message)]);
  return [['default payload', JSON.stringify(defaultExamplePayload(paper), null, 2)], ...examples, ...alerts];
}

/** The shown orders a hook does not answer 201 with one of `statuses`, with its answer. */
async function misanswered(shortKey: string, shown: Shown[], statuses: readonly string[]) {
  const wrong: Array<{ name: string; code: number; body: unknown }> = [];
  for (const [name, json] of shown) {
    // Sent as the platform sends it: its placeholders filled as a test signal fills them.
    const res = await postSignal(t, shortKey, fillPlaceholders(json, paper), 'text/plain');
    if (res.statusCode !== 201 || !statuses.includes(res.json().status)) {
      wrong.push({ name, code: res.statusCode, body: res.json() });
    }
  }
  return wrong;
}

describe('the documentation page and playground for the paper broker', () => {
  it('shows orders a test hook answers as a draft', async () => {
    const test = await setupTrader(t, 'docs-test@example.com', { isTest: true, credits: 0 });
    expect(await misanswered(test.shortKey, [...documented(), ...samples()], ANSWER_STATUSES.test)).toEqual([]);
  });

  it('shows examples and alerts a live hook places, answered as the Success (201) sample', async () => {
    const live = await setupTrader(t, 'docs-live@example.com', { credits: 100 });
    // The TradingView examples sell: hold something to sell first.
    expect((await postSignal(t, live.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 50 })).statusCode).toBe(201);
    expect(await misanswered(live.shortKey, documented(), ANSWER_STATUSES.order)).toEqual([]);
    const res = await postSignal(t, live.shortKey, defaultExamplePayload(paper));
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(SAMPLE_SUCCESS_RESPONSE).sort());
  });

  it('shows, for each class and type, an entry a fresh live account places, and a cancel answered as canceled', async () => {
    for (const orderClass of playgroundChoices(paper).classes) {
      for (const entry of samples(orderClass, (each) => [firstActionFor(each)])) {
        const live = await setupTrader(t, `docs-${entry[0].replaceAll(' ', '-')}@example.com`, { credits: 5 });
        expect(await misanswered(live.shortKey, [entry], ANSWER_STATUSES.order)).toEqual([]);
      }
      const cancel = samples(orderClass, (each) =>
        providerActions(paper.reference, each).filter((a) => a === 'cancel'),
      );
      const live = await setupTrader(t, `docs-${orderClass}-cancel@example.com`, { credits: 5 });
      expect(await misanswered(live.shortKey, cancel.slice(0, 1), ANSWER_STATUSES.cancel)).toEqual([]);
    }
  });

  it('answers an order without a symbol with the Error (400) sample, word for word', async () => {
    const live = await setupTrader(t, 'docs-error@example.com');
    const { symbol: _symbol, ...withoutSymbol } = defaultExamplePayload(paper);
    const res = await postSignal(t, live.shortKey, withoutSymbol);
    expect({ code: res.statusCode, body: res.json() }).toEqual({ code: 400, body: SAMPLE_ERROR_RESPONSE });
  });
});
