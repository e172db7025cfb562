// Activity as trade lines (issue #21 point 2): signals through the real hook endpoint on Paper
// Trading become Order actions with webhook, order, result and per-phase times, filterable by
// result, webhook, broker, symbol and date; one user never sees another's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { eventually, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';

const ACTIONS = `query($result: String, $hookKey: String, $providerName: String, $symbol: String, $since: Float) {
  actions(code: "Order", result: $result, hookKey: $hookKey, providerName: $providerName, symbol: $symbol,
    since: $since) {
    trade { hookKey hookName providerName symbol side quantity orderType price result status elapsedMs
      phases { parse store broker } brokerOrderId order response isTest repeat checking }
  }
}`;

interface Trade {
  hookKey: string;
  hookName: string;
  symbol: string | null;
  side: string | null;
  quantity: number | null;
  orderType: string | null;
  price: number | null;
  result: string;
  elapsedMs: number | null;
  phases: { parse: number | null; store: number | null; broker: number | null };
  brokerOrderId: string | null;
  order: string | null;
  isTest: boolean;
}

let t: TestApp;
let trader: Awaited<ReturnType<typeof setupTrader>>;
let testHookKey: string;
const started = Date.now();

async function trades(variables: Record<string, unknown> = {}, headers = trader.headers): Promise<Trade[]> {
  const { data, errors } = await gqlAs<{ actions: Array<{ trade: Trade }> }>(t, headers, ACTIONS, variables);
  expect(errors).toBeUndefined();
  return data?.actions.map((action) => action.trade) ?? [];
}

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
  trader = await setupTrader(t, 'trades@example.com');
  const testHook = await trader.addHook(true);
  testHookKey = testHook.key;
  expect((await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 2 })).statusCode).toBe(201);
  expect((await postSignal(t, trader.shortKey, { symbol: 'MSFT', action: 'sell' })).statusCode).toBe(400);
  const draft = await postSignal(t, testHook.shortKey, {
    symbol: 'TSLA',
    action: 'buy',
    quantity: 3,
    type: 'limit',
    limit_price: 200,
  });
  expect(draft.statusCode).toBe(201);
  await eventually(async () => (await trades()).length === 3);
});
afterAll(() => t.close());

describe('trade lines', () => {
  it('shows webhook, order, result, elapsed time with its phases, and the broker order id', async () => {
    const [draft, refused, filled] = await trades();
    expect(filled).toMatchObject({
      hookKey: trader.hook.key,
      hookName: 'Main',
      symbol: 'AAPL',
      side: 'buy',
      quantity: 2,
      orderType: 'market',
      result: 'filled',
      isTest: false,
    });
    expect(filled?.brokerOrderId).toBeTruthy();
    expect(filled?.price).toBeGreaterThan(0);
    expect(filled?.phases.parse).not.toBeNull();
    expect(filled?.phases.store).not.toBeNull();
    expect(filled?.phases.broker).not.toBeNull();
    expect(JSON.parse(filled?.order ?? '{}')).toMatchObject({ symbol: 'AAPL', quantity: 2 });
    expect(refused).toMatchObject({
      symbol: 'MSFT',
      side: 'sell',
      result: 'refused',
      order: null,
      brokerOrderId: null,
    });
    expect(refused?.phases).toMatchObject({ store: null, broker: null });
    expect(draft).toMatchObject({ symbol: 'TSLA', orderType: 'limit', price: 200, result: 'draft', isTest: true });
  });

  it('filters by result, webhook, broker, symbol and date', async () => {
    const symbols = async (variables: Record<string, unknown>) => (await trades(variables)).map((line) => line.symbol);
    expect(await symbols({ result: 'filled' })).toEqual(['AAPL']);
    expect(await symbols({ result: 'refused' })).toEqual(['MSFT']);
    expect(await symbols({ result: 'draft' })).toEqual(['TSLA']);
    expect(await symbols({ result: 'rejected' })).toEqual([]);
    expect(await symbols({ hookKey: testHookKey })).toEqual(['TSLA']);
    expect(await symbols({ hookKey: trader.hook.key })).toEqual(['MSFT', 'AAPL']);
    expect(await symbols({ providerName: 'paper' })).toHaveLength(3);
    expect(await symbols({ providerName: 'alpaca' })).toEqual([]);
    expect(await symbols({ symbol: 'msft' })).toEqual(['MSFT']);
    expect(await symbols({ symbol: 'tsla' })).toEqual(['TSLA']);
    expect(await symbols({ since: started - 60_000 })).toHaveLength(3);
    expect(await symbols({ since: Date.now() + 60_000 })).toEqual([]);
    const bad = await gqlAs(t, trader.headers, ACTIONS, { result: 'won' });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it("never shows another user's trades", async () => {
    const other = await setupTrader(t, 'trades-other@example.com');
    expect(await trades({ hookKey: trader.hook.key }, other.headers)).toEqual([]);
  });
});

describe('a signal resent by its sender, and an unknown outcome', () => {
  it('marks the repeat as such, and leaves it out of the result filter (one order, one fill)', async () => {
    const sender = await setupTrader(t, 'trades-repeat@example.com');
    const body = { symbol: 'NVDA', action: 'buy', quantity: 1, client_id: 'tv-alert-7' };
    expect((await postSignal(t, sender.shortKey, body)).statusCode).toBe(201);
    expect((await postSignal(t, sender.shortKey, body)).statusCode).toBe(201);
    await eventually(async () => (await trades({}, sender.headers)).length === 2);
    const [repeat, first] = await trades({}, sender.headers);
    expect(first).toMatchObject({ symbol: 'NVDA', result: 'filled', repeat: false });
    expect(repeat).toMatchObject({ symbol: 'NVDA', repeat: true });
    expect(await trades({ result: 'filled' }, sender.headers)).toHaveLength(1);
  });

  it('says whether an unknown outcome is still being checked or final', async () => {
    const owner = await setupTrader(t, 'trades-unknown@example.com');
    expect((await postSignal(t, owner.shortKey, { symbol: 'AMD', action: 'buy', quantity: 1 })).statusCode).toBe(201);
    await eventually(async () => (await trades({}, owner.headers)).length === 1);
    const pool = t.services.db.$client;
    await pool.query("update signals set status = 'unknown', completed_at = null where user_id = $1", [owner.userId]);
    expect((await trades({}, owner.headers))[0]).toMatchObject({ result: 'unknown', checking: true });
    await pool.query('update signals set completed_at = now() where user_id = $1', [owner.userId]);
    expect((await trades({}, owner.headers))[0]).toMatchObject({ result: 'unknown', checking: false });
  });
});

describe('the symbol filter, in every spelling the order language reads', () => {
  it('finds an option, a TradingView exchange-prefixed ticker and a pair as the trader writes or sees them', async () => {
    const spelled = await setupTrader(t, 'trades-spelled@example.com');
    const drafts = await spelled.addHook(true);
    const send = async (body: Record<string, unknown>, status: number) =>
      expect((await postSignal(t, drafts.shortKey, { action: 'buy', quantity: 1, ...body })).statusCode).toBe(status);
    // Stored as the canonical OCC form (padded: 'AAPL  271217C00150000'), as NVDA and EUR/USD.
    await send({ symbol: 'AAPL271217C150', action: 'buy_to_open' }, 201);
    await send({ symbol: 'NASDAQ:NVDA' }, 201);
    await send({ symbol: 'EURUSD', quantity: 1000 }, 201);
    // Refused before normalizing (no quantity): its line reads the request as sent.
    expect((await postSignal(t, drafts.shortKey, { symbol: 'NASDAQ:MSFT', action: 'sell' })).statusCode).toBe(400);
    const found = async (symbol: string) => {
      const { data, errors } = await gqlAs<{ actions: Array<{ trade: Trade }> }>(t, spelled.headers, ACTIONS, {
        symbol,
      });
      expect(errors).toBeUndefined();
      return data?.actions.map((action) => action.trade.symbol) ?? [];
    };
    await eventually(async () => (await found('NVDA')).length === 1);
    const option = 'AAPL  271217C00150000';
    // As the page shows it (HTML shows its two padding spaces as one), as sent, and as stored.
    expect(await found('AAPL 271217C00150000')).toEqual([option]);
    expect(await found('aapl271217c150')).toEqual([option]);
    expect(await found(option)).toEqual([option]);
    // TradingView's NASDAQ:NVDA is NVDA, both ways, stored or refused.
    expect(await found('NASDAQ:NVDA')).toEqual(['NVDA']);
    expect(await found('MSFT')).toEqual(['NASDAQ:MSFT']);
    expect(await found('nasdaq:msft')).toEqual(['NASDAQ:MSFT']);
    expect(await found('EURUSD')).toEqual(['EUR/USD']);
    expect(await found('EUR/USD')).toEqual(['EUR/USD']);
    // Still one symbol: AAPL is not its options.
    expect(await found('AAPL')).toEqual([]);
  });
});
