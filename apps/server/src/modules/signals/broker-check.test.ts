// A test hook checks an order as its broker would before sending it (Broker.checkOrder): what a
// live signal would have refused is refused with the live answer, stored and charged as nothing;
// a valid order is still a draft; what only the broker can tell (a symbol it lists) is not checked.
import { currentExample } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { balanceOf, postSignal } from '../../../test/signal-fixtures.ts';
import { newShortKey } from '../../crypto/random.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A futures contract trading today (ESZ26 as written, moved to a current month: a written one expires). */
const ES = currentExample('ESZ26', Date.now());

/** Per broker: an order the order language takes and its live placement refuses (adapter tests show the message). */
const CASES = [
  {
    provider: 'alpaca',
    refused: { symbol: 'AMD', action: 'close', quantity: 100, quantity_type: 'cash' },
    message: 'Alpaca: close takes a fixed quantity or percent_of_position',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1 },
  },
  {
    provider: 'tradier',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 1.5 },
    message: 'Tradier: quantity must be a whole number of shares or contracts',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 2 },
  },
  {
    provider: 'schwab',
    refused: { symbol: 'AAPL', action: 'sell', quantity: 1, take_profit_price: 250 },
    message: 'Schwab: take profit and stop loss need an opening action, not sell',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1, take_profit_price: 250 },
  },
  {
    provider: 'trading212',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'gtc' },
    message: 'Trading 212: market orders are day orders, not gtc',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1 },
  },
  {
    provider: 'woo',
    refused: { symbol: 'PERP_BTC_USDT', action: 'buy', quantity: 1, duration: 'fok' },
    message: 'WOO X: duration fok on market orders is not supported',
    valid: { symbol: 'PERP_BTC_USDT', action: 'buy', quantity: 1 },
  },
  {
    provider: 'kraken',
    refused: { symbol: 'BTCUSD', action: 'sell', quantity: 100, quantity_type: 'cash' },
    message: 'Kraken: cash quantity except on market buys is not supported',
    valid: { symbol: 'BTCUSD', action: 'buy', quantity: 100, quantity_type: 'cash' },
  },
  {
    provider: 'coinbase',
    refused: { symbol: 'BTC-USD', action: 'sell', quantity: 100, quantity_type: 'cash' },
    message: 'Coinbase: cash quantity except on market buys is not supported',
    valid: { symbol: 'BTC-USD', action: 'buy', quantity: 100, quantity_type: 'cash' },
  },
  {
    provider: 'etrade',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 1.5 },
    message: 'E*TRADE: quantity must be a whole number of shares or contracts',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 2 },
  },
  {
    provider: 'webull',
    refused: { symbol: ES, action: 'buy', quantity: 1.5 },
    message: 'Webull: futures trade whole contracts',
    valid: { symbol: ES, action: 'buy', quantity: 1 },
  },
  {
    provider: 'tastytrade',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'gtd' },
    message: 'tastytrade: duration gtd needs extra.gtc_date, the last day as YYYY-MM-DD',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1 },
  },
  {
    provider: 'zerodha',
    refused: { symbol: 'NSE:INFY', action: 'buy', quantity: 1.5 },
    message: 'Zerodha: quantity must be a whole number of shares or units',
    valid: { symbol: 'NSE:INFY', action: 'buy', quantity: 1 },
  },
  {
    provider: 'rithmic',
    refused: { symbol: 'ES2!', action: 'buy', quantity: 1 },
    message: 'Rithmic: only the front month (ES1!) is resolved; name the month of ES2!',
    valid: { symbol: 'ES1!', action: 'buy', quantity: 1 },
  },
  {
    provider: 'ibkr',
    refused: { symbol: 'AAPL', action: 'sell', quantity: 1, limit_price: 200, take_profit_price: 210 },
    message: 'Interactive Brokers: take profit and stop loss need an opening action, not sell',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 200, take_profit_price: 210 },
  },
  {
    provider: 'metatrader',
    refused: { symbol: 'EURUSD', action: 'buy', quantity: 1, duration: 'gtc' },
    message: 'MetaTrader: duration: market orders take day, ioc or fok, not gtc',
    valid: { symbol: 'EURUSD', action: 'buy', quantity: 0.1 },
  },
  {
    provider: 'saxo',
    refused: { symbol: 'ES1!', action: 'buy', quantity: 1 },
    message: 'Saxo: ES1! is a continuous contract; give the contract month',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1 },
  },
  {
    provider: 'ctrader',
    refused: { symbol: 'EURUSD', action: 'buy', quantity: 1000.001 },
    message:
      'cTrader: quantity 1000.001 must be positive with at most 2 decimals (cTrader counts hundredths of a unit)',
    valid: { symbol: 'EURUSD', action: 'buy', quantity: 1000 },
  },
  {
    provider: 'tradovate',
    refused: { symbol: 'ES1!', action: 'buy', quantity: 1.5 },
    message: 'Tradovate: quantity must be a whole number of contracts, not 1.5',
    valid: { symbol: 'ES1!', action: 'buy', quantity: 1 },
  },
  {
    provider: 'forex',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 1000 },
    message: 'FOREX.com: AAPL is not a currency or metal pair',
    valid: { symbol: 'EUR/USD', action: 'buy', quantity: 1000 },
  },
  {
    provider: 'questrade',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 0.5 },
    message: 'Questrade: quantity must be a whole number, not 0.5',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1 },
  },
  {
    provider: 'robinhood',
    refused: { symbol: 'BTC/USDT', action: 'buy', quantity: 1 },
    message: 'Robinhood: only pairs against USD trade (BTC-USD), not BTC/USDT',
    valid: { symbol: 'BTC-USD', action: 'buy', quantity: 0.001 },
  },
  {
    provider: 'paper',
    refused: { symbol: 'NOSUCHSYMBOL', action: 'buy', quantity: 1 },
    message: 'Paper Trading: Symbol not found: NOSUCHSYMBOL',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1 },
  },
];

/** A user with credits and a test hook on a connection to `provider` (never opened: a test hook calls no broker). */
async function testHookOn(provider: string, tag = provider) {
  const { id: userId } = await insertTestUser(t.services, `check-${tag}@example.com`);
  const db = t.services.db.$client;
  await db.query('insert into accounts (user_id, balance, credits) values ($1, 5, 5)', [userId]);
  const accounts = [{ id: 'A1', name: 'Main', demo: true }];
  const connector = await db.query<{ id: string }>(
    `insert into connectors (key, user_id, provider_name, is_active, accounts) values ($1, $2, $3, true, $4)
     returning id`,
    [`c_check_${tag}`, userId, provider, JSON.stringify(accounts)],
  );
  const shortKey = newShortKey();
  await db.query(
    `insert into hooks (key, short_key, user_id, connector_id, account_id, name, is_test)
     values ($1, $2, $3, $4, 'A1', 'Test', true)`,
    [`h_check_${tag}`, shortKey, userId, Number(connector.rows[0]?.id)],
  );
  return { userId, shortKey };
}

const signalCount = async (userId: number) =>
  Number(
    (
      await t.services.db.$client.query<{ n: string }>(
        'select count(*) as n from signals s join hooks h on h.id = s.hook_id where h.user_id = $1',
        [userId],
      )
    ).rows[0]?.n,
  );

describe('a test hook checks the order as its broker would', () => {
  it.each(CASES)('$provider: refuses what placing refuses, with its answer; drafts a valid order', async (c) => {
    const { userId, shortKey } = await testHookOn(c.provider);
    const refused = await postSignal(t, shortKey, c.refused);
    expect({ status: refused.statusCode, body: refused.json() }).toEqual({
      status: 400,
      body: { status: 'ExecutionError', message: c.message },
    });
    expect(await signalCount(userId)).toBe(0);
    expect(await balanceOf(t, userId)).toBe(5);

    const valid = await postSignal(t, shortKey, c.valid);
    expect(valid.statusCode).toBe(201);
    expect(valid.json()).toMatchObject({ status: 'draft' });
  });

  it('what only the broker can tell is not checked: a symbol it may not list is drafted', async () => {
    // IBKR resolves a symbol at the broker (a contract search), which a test hook never calls.
    const { shortKey } = await testHookOn('ibkr', 'ibkr-lookup');
    const res = await postSignal(t, shortKey, { symbol: 'NOSUCHSYMBOL', action: 'buy', quantity: 1 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'draft' });
  });
});
