// Notification mails read well: the order's details, the link to its activity entry, escaped HTML.
import { describe, expect, it } from 'vitest';
import { digestMail, disabledMail, eventMail, type MailContext } from './mail-content.ts';

const ctx: MailContext = {
  publicUrl: 'https://router.example',
  title: (name) => (name === 'alpaca' ? 'Alpaca' : name),
};
const at = new Date('2025-03-14T09:30:00Z');
const order = (type: string, extra: Record<string, unknown> = {}) => ({
  type,
  at,
  data: {
    signalId: 'sig_123',
    hook: { key: 'h1', name: 'Swing <alerts>' },
    connectorKey: 'c1',
    providerName: 'alpaca',
    accountId: 'PA-1',
    order: { symbol: 'AAPL', action: 'buy', quantity: 10, type: 'limit', limit_price: 189.5 },
    status: 'accepted',
    brokerOrderId: 'b-77',
    price: null,
    ...extra,
  },
});

describe('eventMail', () => {
  it("describes an order with its details and links to the signal's activity entry", () => {
    const mail = eventMail(ctx, 'jo@example.com', order('order.placed'));
    expect(mail.to).toBe('jo@example.com');
    expect(mail.subject).toBe('Order placed: BUY 10 AAPL on Alpaca · Signal Router');
    expect(mail.link).toBe('https://router.example/me?signal=sig_123');
    for (const line of [
      'Webhook "Swing <alerts>" sent an order to Alpaca account PA-1.',
      'Symbol: AAPL',
      'Quantity: 10',
      'Limit price: 189.5',
      'Broker order id: b-77',
      'Time: 2025-03-14 09:30 UTC',
    ]) {
      expect(mail.text).toContain(line);
    }
    expect(mail.text).not.toContain('Average price');
    expect(mail.html).toContain('Swing &#60;alerts&#62;');
    expect(mail.html).not.toContain('<alerts>');
  });

  it("links a refused signal (stored as none) to its webhook's calls in the activity", () => {
    const mail = eventMail(ctx, 'jo@example.com', {
      type: 'signal.refused',
      at,
      data: {
        hook: { key: 'h1', name: 'Swing' },
        connectorKey: 'c1',
        providerName: 'alpaca',
        accountId: 'PA-1',
        reason: 'invalid',
        message: 'action: must be one of buy, sell',
      },
    });
    expect(mail.subject).toBe('Signal refused on webhook "Swing" · Signal Router');
    expect(mail.link).toBe('https://router.example/me?hook=h1');
    expect(mail.text).toContain('See your activity: https://router.example/me?hook=h1');
  });

  it('says what a quantity in percent or cash counts, not as a number of shares', () => {
    const percent = (quantity_type: string) =>
      eventMail(
        ctx,
        'jo@example.com',
        order('order.placed', { order: { symbol: 'AAPL', action: 'sell', quantity: 50, quantity_type } }),
      );
    const position = percent('percent_of_position');
    expect(position.subject).toBe('Order placed: SELL 50% of position AAPL on Alpaca · Signal Router');
    expect(position.text).toContain('Quantity: 50% of position');
    expect(percent('percent_of_equity').text).toContain('Quantity: 50% of equity');
    expect(percent('cash').subject).toBe('Order placed: SELL 50 in cash AAPL on Alpaca · Signal Router');
    expect(percent('fixed').subject).toBe('Order placed: SELL 50 AAPL on Alpaca · Signal Router');
  });

  it("names the broker's message of a rejected order, and the price of a fill", () => {
    const rejected = eventMail(
      ctx,
      'jo@example.com',
      order('order.rejected', { status: 'rejected', message: 'Alpaca: insufficient buying power' }),
    );
    expect(rejected.subject).toMatch(/^Order rejected: BUY 10 AAPL on Alpaca/);
    expect(rejected.text).toContain('Message: Alpaca: insufficient buying power');
    const filled = eventMail(ctx, 'jo@example.com', order('order.filled', { status: 'filled', price: 189.2 }));
    expect(filled.subject).toMatch(/^Order filled: BUY 10 AAPL at 189.2 on Alpaca/);
  });

  it("shows an order's duration, its exits (take profit, stop loss) and a trailing stop's distance, and its legs", () => {
    const bracket = eventMail(
      ctx,
      'jo@example.com',
      order('order.placed', {
        order: {
          symbol: 'AAPL',
          action: 'buy',
          quantity: 10,
          type: 'limit',
          limit_price: 189.5,
          duration: 'gtc',
          take_profit_price: 200,
          stop_loss_price: 180,
        },
      }),
    );
    for (const line of ['Duration: gtc', 'Take profit: 200', 'Stop loss: 180']) {
      expect(bracket.text).toContain(line);
    }
    const trailing = eventMail(
      ctx,
      'jo@example.com',
      order('order.placed', {
        order: {
          symbol: 'AAPL',
          action: 'sell',
          quantity: 10,
          type: 'stop',
          stop_price_percent: 2,
          stop_loss_price_distance: 1.5,
          duration: 'day',
        },
      }),
    );
    expect(trailing.text).toContain('Stop distance: 2%');
    expect(trailing.text).toContain('Stop loss distance: 1.5');
    const spread = eventMail(
      ctx,
      'jo@example.com',
      order('order.placed', {
        order: {
          symbol: 'SPY',
          action: 'buy',
          quantity: 1,
          type: 'limit',
          limit_price: 1.25,
          legs: [
            { symbol: 'SPY250321C00500000', action: 'buy_to_open', quantity: 1 },
            { symbol: 'SPY250321C00510000', action: 'sell_to_open', quantity: 1 },
          ],
        },
      }),
    );
    expect(spread.text).toContain('Legs: BUY_TO_OPEN 1 SPY250321C00500000, SELL_TO_OPEN 1 SPY250321C00510000');
    expect(spread.html).toContain('<th align="left">Legs</th>');
  });

  it("links connection events to their broker's page (its reconnect dialog) and credits to the account", () => {
    const expiring = eventMail(ctx, 'jo@example.com', {
      type: 'connector.expiring',
      at,
      data: { connectorKey: 'c1', providerName: 'alpaca', accountIds: ['PA-1'], expiresAt: Date.UTC(2025, 2, 20, 8) },
    });
    expect(expiring.subject).toMatch(/^Your Alpaca connection expires on 2025-03-20 08:00 UTC/);
    expect(expiring.link).toBe('https://router.example/me/connector/alpaca');
    const deactivated = eventMail(ctx, 'jo@example.com', {
      type: 'connector.deactivated',
      at,
      data: { connectorKey: 'c1', providerName: 'alpaca', accountIds: ['PA-1'], reason: 'Alpaca: unauthorized' },
    });
    expect(deactivated.link).toBe('https://router.example/me/connector/alpaca');
    const credits = eventMail(ctx, 'jo@example.com', { type: 'credits.low', at, data: { balance: 3, threshold: 5 } });
    expect(credits.subject).toMatch(/^You have 3 signals left/);
    expect(credits.link).toBe('https://router.example/me/account');
  });

  it('writes a stored time no date can hold as it was given, instead of failing the mail', () => {
    const event = {
      type: 'connector.expiring',
      at,
      data: { connectorKey: 'c1', providerName: 'alpaca', accountIds: ['PA-1'], expiresAt: 9e15 },
    };
    const mail = eventMail(ctx, 'jo@example.com', event);
    expect(mail.subject).toMatch(/^Your Alpaca connection expires on 9000000000000000 ·/);
    expect(mail.text).toContain('Expires: 9000000000000000');
    expect(digestMail(ctx, 'jo@example.com', 'connector.expiring', [event, event]).text).toContain(
      '2025-03-14 09:30 UTC — Your Alpaca connection expires on 9000000000000000',
    );
    // A date past year 9999 (ISO text "+010000-…") is no time to cut to minutes either.
    const far = eventMail(ctx, 'jo@example.com', { ...event, data: { ...event.data, expiresAt: 3e14 } });
    expect(far.text).toContain('Expires: 300000000000000\n');
  });
});

describe('digestMail and disabledMail', () => {
  it('lists many events of one kind in one mail, oldest first', () => {
    const sell = order('order.rejected', { order: { symbol: 'MSFT', action: 'sell', quantity: 1 } });
    const later = { ...sell, at: new Date(at.getTime() + 1000) };
    const mail = digestMail(ctx, 'jo@example.com', 'order.rejected', [later, order('order.rejected')]);
    expect(mail.subject).toBe('2 × Order rejected or failed · Signal Router');
    const lines = mail.text.split('\n');
    const aapl = lines.findIndex((l) => l.includes('AAPL'));
    const msft = lines.findIndex((l) => l.includes('SELL 1 MSFT'));
    expect(aapl).toBeGreaterThan(-1);
    expect(msft).toBeGreaterThan(aapl);
  });

  it('says on each line of a digest why the order was rejected or the signal refused', () => {
    const rejected = digestMail(ctx, 'jo@example.com', 'order.rejected', [
      order('order.rejected', { status: 'rejected', message: 'Alpaca: insufficient <buying> power' }),
    ]);
    expect(rejected.text).toContain('Order rejected: BUY 10 AAPL on Alpaca (Alpaca: insufficient <buying> power)');
    expect(rejected.html).toContain('(Alpaca: insufficient &#60;buying&#62; power)');
    const refused = digestMail(ctx, 'jo@example.com', 'signal.refused', [
      {
        type: 'signal.refused',
        at,
        data: { hook: { key: 'h1', name: 'Swing' }, reason: 'invalid', message: 'action: must be one of buy, sell' },
      },
    ]);
    expect(refused.text).toContain('Signal refused on webhook "Swing" (action: must be one of buy, sell)');
    const filled = digestMail(ctx, 'jo@example.com', 'order.filled', [order('order.filled', { price: 189.2 })]);
    expect(filled.text).toContain('Order filled: BUY 10 AAPL at 189.2 on Alpaca\n');
  });

  it('lists the first 100 events of a long flood and counts the rest', () => {
    const events = Array.from({ length: 130 }, (_, i) => ({
      ...order('order.filled'),
      at: new Date(at.getTime() + i),
    }));
    const mail = digestMail(ctx, 'jo@example.com', 'order.filled', events);
    expect(mail.subject).toMatch(/^130 × /);
    expect(mail.text.match(/ — /g)).toHaveLength(100);
    expect(mail.text).toContain('…and 30 more');
  });

  it('tells why a webhook was disabled and how to revive it', () => {
    const mail = disabledMail(ctx, 'jo@example.com', {
      url: 'https://hooks.example.com/in',
      providerName: 'alpaca',
      accountId: 'PA-1',
      reason: 'Deliveries failed for 3 days',
    });
    expect(mail.text).toContain('failed for 3 days, so it was disabled');
    expect(mail.text).toContain('Webhook URL: https://hooks.example.com/in');
  });
});
