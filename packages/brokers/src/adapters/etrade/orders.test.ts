// Contract tests of E*TRADE orders against the protocol fake: every order form the descriptor
// claims (preview, then place with the PreviewIds), what is refused before sending, E*TRADE's
// refusals typed and titled, a stale preview placed again once, nothing ever sent twice.
import { describe, expect, it, vi } from 'vitest';
import { BrokerError } from '../../core/errors.ts';
import { brokerFailure } from '../../core/expect-failure.ts';
import { SIGNAL_CASES } from './fixtures/signals.ts';
import { paced } from './orders.ts';
import { ACCOUNT, toOrder, useEtradeFake } from './test-support.ts';

const t = useEtradeFake({
  accounts: [{ accountId: '84345821', accountIdKey: 'dBZOKt9xDrtRSAOl4MSiiA', cash: 500_000 }],
});
const ORDERS = `/v1/accounts/${ACCOUNT}/orders`;
/** E*TRADE's rate refusal: HTTP 400, not 429 (WIRE.md §8). */
const RATE_REFUSAL = {
  status: 400,
  body: { Error: { code: 9999, message: 'Number of requests exceeded the rate limit set' } },
};

describe('orders the descriptor claims', () => {
  SIGNAL_CASES.forEach(({ name, signal, clientOrderId, wire }, index) => {
    it(`previews and places ${name}`, async () => {
      const session = await t.connect();
      const id = clientOrderId ?? `sigCase${index}`;
      t.fake.requests.length = 0;
      const response = await t.place(session, signal, id);
      expect(t.calls()).toEqual([`POST ${ORDERS}/preview.json`, `POST ${ORDERS}/place.json`]);
      const [preview] = t.bodies('/preview.json');
      const [place] = t.bodies('/place.json');
      expect(preview).toEqual({ PreviewOrderRequest: { ...wire, clientOrderId: id } });
      expect(place).toEqual({
        PlaceOrderRequest: { ...wire, clientOrderId: id, PreviewIds: [{ previewId: expect.any(Number) }] },
      });
      const placed = t.fake.placed().at(-1);
      expect(response).toEqual({
        id: String(placed?.orderId),
        status: 'accepted',
        status_description: 'Your order was successfully entered during market hours.',
      });
    });
  });

  it('sends a signal id longer than 20 characters as the same 20-character hash each time', async () => {
    const session = await t.connect();
    await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'a-signal-id-of-36-characters-000001');
    const [preview] = t.bodies('/preview.json') as Array<{ PreviewOrderRequest: { clientOrderId: string } }>;
    expect(preview?.PreviewOrderRequest.clientOrderId).toMatch(/^[0-9a-f]{20}$/);
    const repeat = await brokerFailure(
      t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'a-signal-id-of-36-characters-000001'),
    );
    expect([repeat.kind, repeat.message]).toEqual([
      'DuplicateOrder',
      `E*TRADE: Duplicate order: client order id ${preview?.PreviewOrderRequest.clientOrderId} was already used.`,
    ]);
  });

  it('refuses before sending what E*TRADE cannot take', async () => {
    const session = await t.connect();
    t.fake.requests.length = 0;
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { symbol: 'AAPL', action: 'buy', quantity: 1.5 },
        'E*TRADE: quantity must be a whole number of shares or contracts',
      ],
      [
        {
          symbol: 'SPY   261218C00580000',
          action: 'buy_to_open',
          'symbol[2]': 'SPY   261218C00590000',
          'action[2]': 'sell_to_open',
          quantity: 1,
        },
        'E*TRADE: a multi-leg order needs its net price as limit_price',
      ],
      [
        { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'ato', stop_price: 170 },
        'E*TRADE: ato takes market or limit orders',
      ],
    ];
    for (const [signal, message] of cases) {
      const refused = await brokerFailure(t.place(session, signal));
      expect([refused.kind, refused.message]).toEqual(['InvalidOrder', message]);
    }
    expect(() => toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 1, take_profit_price: 2 })).toThrow(
      'E*TRADE: take_profit_price: not supported',
    );
    expect(() => toOrder({ symbol: 'EUR/USD', action: 'buy', quantity: 1 })).toThrow(/E\*TRADE/);
    expect(t.fake.requests).toEqual([]);
  });
});

describe("E*TRADE's refusals and confirmations", () => {
  it('places a stale preview again once (101), with the same clientOrderId', async () => {
    const session = await t.connect();
    t.fake.requests.length = 0;
    t.fake.inject({
      method: 'POST',
      path: `${ORDERS}/place.json`,
      status: 400,
      body: { Error: { code: 101, message: '{com.etrade.api.v1.order.InvalidPreviewId}' } },
    });
    const response = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 2 }, 'sigStale1');
    expect(t.calls()).toEqual([
      `POST ${ORDERS}/preview.json`,
      `POST ${ORDERS}/place.json`,
      `POST ${ORDERS}/preview.json`,
      `POST ${ORDERS}/place.json`,
    ]);
    expect(response.id).toBe(String(t.fake.placed().at(-1)?.orderId));
    expect(t.fake.placed().filter((order) => order.clientOrderId === 'sigStale1')).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      t.fake.inject({
        method: 'POST',
        path: `${ORDERS}/place.json`,
        status: 400,
        body: { Error: { code: 101, message: 'For your protection, we have timed out your original order request.' } },
      });
    }
    const twice = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 2 }, 'sigStale2'));
    expect([twice.kind, twice.message]).toEqual([
      'InvalidOrder',
      'E*TRADE: For your protection, we have timed out your original order request.',
    ]);
  });

  it('reads E*TRADE’s own XML error (its default format) as its error, not as a proxy’s page', async () => {
    const session = await t.connect();
    t.fake.requests.length = 0;
    const xml = (code: number | undefined, message: string) => ({
      status: code === undefined ? 401 : 400,
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0" encoding="UTF-8"?><Error>${code === undefined ? '' : `<code>${code}</code>`}<message>${message}</message></Error>`,
    });
    // A stale preview (101) in XML is placed again once, as in JSON.
    t.fake.inject({
      method: 'POST',
      path: `${ORDERS}/place.json`,
      ...xml(101, 'For your protection, we have timed out your original order request.'),
    });
    await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 2 }, 'sigXml1');
    expect(t.calls()).toEqual([
      `POST ${ORDERS}/preview.json`,
      `POST ${ORDERS}/place.json`,
      `POST ${ORDERS}/preview.json`,
      `POST ${ORDERS}/place.json`,
    ]);
    // A refusal shows E*TRADE's message, with its kind.
    t.fake.inject({
      method: 'POST',
      path: `${ORDERS}/preview.json`,
      ...xml(100, 'Account key does not belong to user &amp; session'),
    });
    const refused = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sigXml2'));
    expect([refused.kind, refused.message]).toEqual([
      'InvalidOrder',
      'E*TRADE: Account key does not belong to user & session',
    ]);
    // A refused token in XML is a refused token, not an outage.
    t.fake.inject({ method: 'POST', path: `${ORDERS}/place.json`, ...xml(undefined, 'oauth_problem=token_rejected') });
    const token = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sigXml3'));
    expect([token.kind, token.outcomeUnknown]).toEqual(['AuthenticationError', false]);
  });

  it('refuses a place whose terms differ from its preview (101), as E*TRADE does', async () => {
    const session = await t.connect();
    const request = {
      orderType: 'EQ',
      clientOrderId: 'sigOwnClient1',
      Order: [
        {
          allOrNone: false,
          priceType: 'MARKET',
          orderTerm: 'GOOD_FOR_DAY',
          marketSession: 'REGULAR',
          Instrument: [
            {
              Product: { securityType: 'EQ', symbol: 'AAPL' },
              orderAction: 'BUY',
              quantityType: 'QUANTITY',
              quantity: 1,
            },
          ],
        },
      ],
    };
    const preview = await t.signed(session, 'POST', `${ORDERS}/preview.json`, { PreviewOrderRequest: request });
    const { PreviewOrderResponse } = (await preview.json()) as { PreviewOrderResponse: { PreviewIds: unknown[] } };
    const changed = structuredClone(request);
    (changed.Order[0]?.Instrument[0] as { quantity: number }).quantity = 2;
    const place = await t.signed(session, 'POST', `${ORDERS}/place.json`, {
      PlaceOrderRequest: { ...changed, PreviewIds: PreviewOrderResponse.PreviewIds },
    });
    expect([place.status, await place.json()]).toEqual([
      400,
      { Error: { code: 101, message: '{com.etrade.api.v1.order.InvalidPreviewId}' } },
    ]);
  });

  it('maps funds, account and rate-limit refusals, and 200 answers that are errors', async () => {
    const session = await t.connect();
    const poor = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 100_000 }));
    expect([poor.kind, poor.message]).toEqual([
      'InsufficientFunds',
      'E*TRADE: You do not have enough buying power for this trade.',
    ]);
    const other = await brokerFailure(
      t.broker.getHoldings(
        t.ctx,
        { ...session, accounts: [...session.accounts, { ...session.accounts[0], id: 'other' } as never] },
        'other',
      ),
    );
    expect([other.kind, other.message]).toEqual(['InvalidOrder', 'E*TRADE: Account key does not belong to user']);
    // Refused for the rate three times in a row: waited out twice, then reported.
    for (let i = 0; i < 3; i++) t.fake.inject({ method: 'POST', path: `${ORDERS}/preview.json`, ...RATE_REFUSAL });
    const limited = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([limited.kind, limited.message]).toEqual([
      'RateLimited',
      'E*TRADE: Number of requests exceeded the rate limit set',
    ]);
    t.fake.inject({
      method: 'POST',
      path: `${ORDERS}/preview.json`,
      status: 200,
      body: {
        PreviewOrderResponse: {
          Order: [
            { messages: { Message: [{ code: 1040, description: '200|Symbol is not tradable.', type: 'ERROR' }] } },
          ],
        },
      },
    });
    const in200 = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }));
    expect([in200.kind, in200.message]).toEqual(['InvalidOrder', 'E*TRADE: Symbol is not tradable.']);
    expect(t.fake.placements()).toHaveLength(0);
  });

  it('waits out a rate refusal of the preview and of the place, and places once', async () => {
    const session = await t.connect();
    const [sent, held] = [t.fake.placements().length, t.fake.placed().length];
    t.fake.inject({ method: 'POST', path: `${ORDERS}/preview.json`, ...RATE_REFUSAL });
    t.fake.inject({ method: 'POST', path: `${ORDERS}/place.json`, ...RATE_REFUSAL });
    const placed = await t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 2, limit_price: 150 });
    expect(placed.status).toBe('accepted');
    expect(t.fake.placements()).toHaveLength(sent + 2);
    expect(
      t.fake
        .placed()
        .slice(held)
        .map((order) => String(order.orderId)),
    ).toEqual([placed.id]);
  });

  it('ends the wait at the deadline: the rate refusal is the answer', async () => {
    let calls = 0;
    const refused = new BrokerError('RateLimited', 'E*TRADE', 'Number of requests exceeded the rate limit set');
    const late = await brokerFailure(
      paced({ ...t.ctx, signal: AbortSignal.abort() }, () => {
        calls++;
        return Promise.reject(refused);
      }),
    );
    expect(late).toBe(refused);
    expect(calls).toBe(1);
  });

  it('never sends a placement twice: not on 5xx, not on a timeout', async () => {
    const session = await t.connect();
    const held = t.fake.placed().length;
    t.fake.requests.length = 0;
    t.fake.inject({
      method: 'POST',
      path: `${ORDERS}/place.json`,
      status: 503,
      body: { Error: { code: 503, message: 'Service unavailable' } },
    });
    const down = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sigDown1'));
    expect([down.kind, down.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    // The deadline passes as the placement (after its preview) reaches E*TRADE, which places it 400 ms later.
    const deadline = new AbortController();
    t.fake.inject({ method: 'POST', path: `${ORDERS}/place.json`, delayMs: 400, onArrival: () => deadline.abort() });
    const late = await brokerFailure(
      t.broker.placeOrder({ ...t.ctx, signal: deadline.signal }, session, {
        accountId: ACCOUNT,
        order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
        clientOrderId: 'sigLate1',
      }),
    );
    expect([late.kind, late.outcomeUnknown]).toEqual(['BrokerUnavailable', true]);
    expect(t.fake.placements()).toHaveLength(2);
    // The late placement lands at the fake after its delay: within this case, not in the next one.
    await vi.waitFor(() => expect(t.fake.placed().length).toBe(held + 1), { timeout: 4_000 });
  });

  it('a 403 on an order call refuses that order (InvalidOrder), not the connection; oauth_problem stays auth', async () => {
    const session = await t.connect();
    t.fake.requests.length = 0;
    // E*TRADE refuses its tokens with 401 oauth_problem=… (WIRE.md §8): a 403 on the order is about the order.
    t.fake.inject({
      method: 'POST',
      path: `${ORDERS}/place.json`,
      status: 403,
      body: { Error: { code: 1036, message: 'This account is not approved for options trading.' } },
    });
    const refused = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sig403a'));
    expect([refused.kind, refused.message, refused.outcomeUnknown]).toEqual([
      'InvalidOrder',
      'E*TRADE: This account is not approved for options trading.',
      false,
    ]);
    t.fake.inject({
      method: 'PUT',
      path: `${ORDERS}/cancel.json`,
      status: 403,
      body: { Error: { code: 5001, message: 'This order cannot be cancelled.' } },
    });
    const cancel = await brokerFailure(
      t.broker.cancelOrder(t.ctx, session, { accountId: ACCOUNT, brokerOrderId: '95' }),
    );
    expect(cancel.kind).toBe('InvalidOrder');
    t.fake.inject({
      method: 'POST',
      path: `${ORDERS}/place.json`,
      status: 403,
      body: { Error: { message: 'oauth_problem=token_rejected' } },
    });
    const token = await brokerFailure(t.place(session, { symbol: 'AAPL', action: 'buy', quantity: 1 }, 'sig403b'));
    expect(token.kind).toBe('AuthenticationError');
    expect(t.fake.placements()).toHaveLength(2);
  });

  it('a 403 on an account’s read (its balance, for holdings) refuses that read, not the connection', async () => {
    const session = await t.connect();
    const forbidden = {
      method: 'GET',
      path: `/v1/accounts/${ACCOUNT}/balance.json`,
      status: 403,
      body: { Error: { code: 403, message: 'Access to this account is not allowed.' } },
    } as const;
    // Twice: a read refused as an authentication failure would be asked again after a renewal.
    t.fake.inject(forbidden);
    t.fake.inject(forbidden);
    for (const _ of [1, 2]) {
      const refused = await brokerFailure(t.broker.getHoldings(t.ctx, session, ACCOUNT));
      expect([refused.kind, refused.message]).toEqual([
        'InvalidOrder',
        'E*TRADE: Access to this account is not allowed.',
      ]);
    }
  });

  it('previews without placing: the estimate and E*TRADE’s messages', async () => {
    const session = await t.connect();
    const preview = await t.broker.previewOrder(t.ctx, session, {
      accountId: ACCOUNT,
      order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 10, limit_price: 170 }),
      clientOrderId: 'sig-preview-1',
    });
    expect(preview).toEqual({
      id: 'sig-preview-1',
      status: 'draft',
      status_description:
        'Preview, nothing placed. Estimated total 1700. E*TRADE: Your order was successfully entered during market hours.',
    });
    expect(t.fake.placements()).toHaveLength(0);
  });
});
