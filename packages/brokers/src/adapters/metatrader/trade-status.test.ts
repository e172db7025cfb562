// Contract: a trade answer is decided by its codes, not by the HTTP status (WIRE.md §5: "decide on
// `stringCode`, not on the HTTP status"). A 4xx carrying a code that proves no refusal is an
// unknown outcome for reconciliation, never a refusal (a lost order) nor a resend (a duplicate).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerSession } from '../../core/broker.ts';
import { brokerFailure } from '../../core/expect-failure.ts';
import { DEMO, DEMO_ID, input, type MetaApiWorld, startWorld } from './test-support.ts';

let world: MetaApiWorld;
let session: BrokerSession;
beforeAll(async () => {
  world = await startWorld();
  session = await world.broker.connect(world.ctx, { credentials: DEMO });
});
afterAll(() => world.close());

const path = `/users/current/accounts/${DEMO_ID}/trade`;
const place = () =>
  world.broker.placeOrder(world.ctx, session, input(session, { symbol: 'EURUSD', action: 'buy', quantity: 0.01 }));

describe('trade answers with a 4xx status (WIRE.md §5)', () => {
  it.each([
    [400, -11, 'TRADE_RETCODE_DISCONNECTED_DURING_TRADE', 'Disconnected during trade'],
    [422, 10012, 'TRADE_RETCODE_TIMEOUT', 'Request canceled by timeout'],
    [400, 1, 'ERR_NO_RESULT', 'No error returned, but the result is unknown'],
  ])('%i with %i %s: an unknown outcome, sent once', async (status, numericCode, stringCode, message) => {
    const before = world.fake.trades().length;
    world.fake.inject({ method: 'POST', path, status, body: { numericCode, stringCode, message } });
    const error = await brokerFailure(place());
    expect(error).toMatchObject({ kind: 'BrokerUnavailable', outcomeUnknown: true });
    expect(error.message).toBe(`MetaTrader: ${message} (${stringCode})`);
    expect(world.fake.trades().length).toBe(before + 1);
  });

  it('400 with -10 (disconnected before the trade): never reached the broker, sent once more', async () => {
    const before = world.fake.trades().length;
    const body = { numericCode: -10, stringCode: 'TRADE_RETCODE_DISCONNECTED_BEFORE_TRADE', message: 'Disconnected' };
    world.fake.inject({ method: 'POST', path, status: 400, body });
    expect((await place()).status).toBe('filled');
    expect(world.fake.trades().length).toBe(before + 2);
  });

  it('400 with a refusal code is that refusal; a 400 without codes stays a refusal by its name', async () => {
    const noMoney = { numericCode: 10019, stringCode: 'TRADE_RETCODE_NO_MONEY', message: 'No money' };
    world.fake.inject({ method: 'POST', path, status: 400, body: noMoney });
    expect(await brokerFailure(place())).toMatchObject({
      kind: 'InsufficientFunds',
      outcomeUnknown: false,
      message: 'MetaTrader: No money (TRADE_RETCODE_NO_MONEY)',
    });
    const invalid = { id: 1, error: 'ValidationError', message: 'Validation failed', details: 'volume' };
    world.fake.inject({ method: 'POST', path, status: 400, body: invalid });
    expect(await brokerFailure(place())).toMatchObject({ kind: 'InvalidOrder', outcomeUnknown: false });
  });

  it('a 4xx with a success code is the order placed, not a refusal that would lose it', async () => {
    const ok = { numericCode: 10009, stringCode: 'TRADE_RETCODE_DONE', message: 'Request completed', orderId: '777' };
    world.fake.inject({ method: 'POST', path, status: 400, body: ok });
    expect(await place()).toMatchObject({ id: '777', status: 'filled' });
  });
});
