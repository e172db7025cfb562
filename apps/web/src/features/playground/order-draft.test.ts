import { currentExample, normalizeOrder, type Provider } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { ALPACA, KRAKEN, TRADIER } from '../../routes/me-documentation/test-fixtures.ts';
import { applyValue, draftSelection, pickValue, prefillDraft, readDraft, typedValue } from './order-draft.ts';

describe('order draft', () => {
  it('reads objects leniently and nothing else', () => {
    expect(readDraft("{symbol: 'AAPL', quantity: 1,}")).toEqual({ symbol: 'AAPL', quantity: 1 });
    expect(readDraft('[1, 2]')).toBeUndefined();
    expect(readDraft('{"a": 1 2}')).toBeUndefined();
  });

  it('types query and example text', () => {
    expect(typedValue('3')).toBe(3);
    expect(typedValue('-1.25')).toBe(-1.25);
    expect(typedValue('MSFT')).toBe('MSFT');
    expect(typedValue('{"price": "{{close}}"}')).toEqual({ price: '{{close}}' });
    expect(typedValue('{oops')).toBe('{oops');
  });

  it('prefills class before symbol, then type and action, and ignores unknown parameters', () => {
    const search = new URLSearchParams('action=close&symbol=ETH/USD&class=crypto&quantity=2&limit_price=5&ref=x');
    const draft = prefillDraft({ symbol: 'AAPL', action: 'buy', quantity: 1 }, search, ALPACA);
    expect(draft).toEqual({
      symbol: 'ETH/USD',
      class: 'crypto',
      action: 'close',
      type: 'market',
      quantity: 2,
      limit_price: 5,
    });
  });

  it('keeps a numeric-looking symbol and order ids as text (0700 is not 700, client id 007 is not 7)', () => {
    const draft = prefillDraft({}, new URLSearchParams('symbol=0700&client_id=007&parent_id=12&quantity=3'), ALPACA);
    expect(draft).toMatchObject({ symbol: '0700', client_id: '007', parent_id: '12', quantity: 3 });
    expect(prefillDraft({}, new URLSearchParams('symbol[2]=0005'), ALPACA)).toEqual({ 'symbol[2]': '0005' });
  });

  it('accepts indexed leg parameters', () => {
    const draft = prefillDraft({}, new URLSearchParams('symbol[2]=SPY&action[9]=buy'), ALPACA);
    expect(draft).toEqual({ 'symbol[2]': 'SPY' });
  });

  it('applies a picked symbol of another class by the rules', () => {
    expect(applyValue({ symbol: 'AAPL', action: 'buy' }, 'symbol', 'SPY_271217C00600000', ALPACA)).toMatchObject({
      class: 'option',
      action: 'buy_to_open',
    });
  });

  it('puts a clicked symbol example in with the class the broker lists it as, which its spelling does not say', () => {
    const ibkr: Provider = {
      ...ALPACA,
      reference: {
        ...ALPACA.reference,
        symbol: { examples: ['AAPL', '912828YK0', 'US500'], examplesClass: ['stock', 'bond', 'cfd'] },
        class: { values: ['stock', 'bond', 'cfd'] },
      },
    };
    const stock = { symbol: 'AAPL', action: 'buy', quantity: 1, class: 'stock' };
    expect(pickValue(stock, 'symbol', '912828YK0', ibkr)).toEqual({ ...stock, symbol: '912828YK0', class: 'bond' });
    const bond = pickValue(stock, 'symbol', 'US500', ibkr);
    expect(bond).toEqual({ ...stock, symbol: 'US500', class: 'cfd' });
    expect(pickValue(bond, 'symbol', 'AAPL', ibkr)).toEqual(stock);
    expect(normalizeOrder(pickValue(stock, 'symbol', '912828YK0', ibkr))).toMatchObject({
      ok: true,
      order: { class: 'bond' },
    });
    // Not an example: read from its spelling, as typed.
    expect(pickValue(stock, 'symbol', 'ESZ2030', ibkr)).toMatchObject({ symbol: 'ESZ2030', class: 'future' });
  });

  it.each(['close', 'cancel'] as const)(
    'drops a bracket and its exits when the action becomes %s, so Test is not refused',
    (action) => {
      const bracket = {
        symbol: 'AAPL',
        action: 'buy',
        quantity: 1,
        type: 'limit',
        limit_price: 150,
        group: 'bracket',
        take_profit_price: 160,
        stop_loss_price: 140,
        stop_loss_price_distance: 5,
        stop_loss_price_percent: 2,
      };
      // Nor the sample's quantity: a close without one closes the whole position, a cancel takes none.
      const next = applyValue(bracket, 'action', action, ALPACA);
      expect(next).toEqual({ symbol: 'AAPL', action, type: 'market' });
      expect(normalizeOrder(next)).toMatchObject({ ok: true });
      // Legs go too (close and cancel take none), and with them any group: 'oco needs legs'.
      const oco = { ...bracket, group: 'oco', 'symbol[2]': 'MSFT', 'action[2]': 'sell', 'limit_price[2]': 300 };
      const closed = applyValue(oco, 'action', action, ALPACA);
      expect(closed).toEqual({ symbol: 'AAPL', action, type: 'market' });
      expect(normalizeOrder(closed)).toMatchObject({ ok: true });
    },
  );

  it('brings a type that uses a picked limit or stop price, as choosing it would', () => {
    const market = { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'market' };
    expect(pickValue(market, 'limit_price', 150, ALPACA)).toEqual({ ...market, type: 'limit', limit_price: 150 });
    expect(pickValue(market, 'stop_price', 140, ALPACA)).toEqual({ ...market, type: 'stop', stop_price: 140 });
    const limit = { ...market, type: 'limit', limit_price: 150 };
    expect(pickValue(limit, 'stop_price', 140, ALPACA)).toEqual({ ...limit, type: 'stop_limit', stop_price: 140 });
    const stop = { ...market, type: 'stop', stop_price: 140 };
    expect(pickValue(stop, 'limit_price', 150, ALPACA)).toEqual({ ...stop, type: 'stop_limit', limit_price: 150 });
    // A stop given another way replaces the stop price ('give only one of').
    expect(pickValue(stop, 'stop_price_percent', 2, ALPACA)).toEqual({
      ...market,
      type: 'stop',
      stop_price_percent: 2,
    });
    expect(pickValue({ ...market, stop_loss_price: 140 }, 'stop_loss_price_percent', 2, ALPACA)).toEqual({
      ...market,
      stop_loss_price_percent: 2,
    });
    // Close and cancel take no price: as choosing a type, the action becomes buy.
    const close = { symbol: 'AAPL', action: 'close', quantity: 1, type: 'market' };
    expect(pickValue(close, 'limit_price', 150, ALPACA)).toEqual({
      ...close,
      action: 'buy',
      type: 'limit',
      limit_price: 150,
    });
    // A bracket's exit too: close and cancel take none.
    expect(pickValue(close, 'take_profit_price', 160, ALPACA)).toEqual({
      ...close,
      action: 'buy',
      take_profit_price: 160,
    });
    // No type given: the prices make it (SPEC §5), nothing else changes.
    expect(pickValue({ symbol: 'AAPL', action: 'buy' }, 'limit_price', 150, KRAKEN)).toEqual({
      symbol: 'AAPL',
      action: 'buy',
      limit_price: 150,
    });
    for (const [draft, parameter, value] of [
      [market, 'limit_price', 150],
      [market, 'stop_price', 140],
      [limit, 'stop_price', 140],
      [stop, 'limit_price', 150],
      [close, 'limit_price', 150],
      [close, 'take_profit_price', 160],
      [close, 'stop_loss_price', 140],
    ] as const) {
      expect(normalizeOrder(pickValue(draft, parameter, value, ALPACA))).toMatchObject({ ok: true });
    }
    expect(pickValue(market, 'limit_price', 150, TRADIER)).toMatchObject({ type: 'limit', limit_price: 150 });
    expect(pickValue(market, 'duration', 'gtc', ALPACA)).toEqual({ ...market, duration: 'gtc' });
  });

  it('makes an order to buy of a close or cancel given what it refuses (a duration; on a cancel a quantity or quantity_type)', () => {
    const close = { symbol: 'AAPL', action: 'close', quantity: 2, type: 'market' };
    const cancel = { symbol: 'AAPL', action: 'cancel', type: 'market' };
    expect(pickValue(close, 'duration', 'gtc', ALPACA)).toEqual({ ...close, action: 'buy', duration: 'gtc' });
    expect(pickValue(cancel, 'duration', 'day', ALPACA)).toEqual({
      ...cancel,
      action: 'buy',
      quantity: 1,
      duration: 'day',
    });
    expect(pickValue(cancel, 'quantity', 10, ALPACA)).toEqual({ ...cancel, action: 'buy', quantity: 10 });
    expect(pickValue(cancel, 'quantity_type', 'cash', ALPACA)).toEqual({
      ...cancel,
      action: 'buy',
      quantity: 1,
      quantity_type: 'cash',
    });
    // A close takes a quantity and its quantity_type: it stays a close.
    expect(pickValue(close, 'quantity_type', 'percent_of_position', ALPACA)).toEqual({
      ...close,
      quantity_type: 'percent_of_position',
    });
    for (const [draft, parameter, value] of [
      [close, 'duration', 'gtc'],
      [cancel, 'duration', 'day'],
      [cancel, 'quantity', 10],
      [cancel, 'quantity_type', 'cash'],
      [close, 'quantity_type', 'percent_of_position'],
    ] as const) {
      expect(normalizeOrder(pickValue(draft, parameter, value, ALPACA))).toMatchObject({ ok: true });
    }
  });

  it('selection reads a draft without class or type as the hook does: the symbol gives the class, the prices the type', () => {
    const limit = { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 150 };
    expect(draftSelection(limit, ALPACA)).toEqual({ class: 'stock', type: 'limit', action: 'buy' });
    expect(draftSelection({ ...limit, stop_price_percent: 2 }, ALPACA)).toMatchObject({ type: 'stop_limit' });
    expect(draftSelection({ symbol: 'AAPL', action: 'sell', stop_price: 140 }, ALPACA)).toMatchObject({ type: 'stop' });
    const crypto = { symbol: 'BTCUSD', action: 'buy', quantity: 1 };
    expect(draftSelection(crypto, ALPACA)).toEqual({ class: 'crypto', type: 'market', action: 'buy' });
    // An option of 2027-12-17 as written, moved to a current expiry: the hook reads it on the real clock.
    const symbol = currentExample('SPY_271217C00600000', Date.now());
    const option = { symbol, action: 'buy_to_open', quantity: 1, limit_price: 2 };
    expect(draftSelection(option, ALPACA)).toEqual({ class: 'option', type: 'limit', action: 'buy_to_open' });
    for (const draft of [limit, crypto, option]) {
      const normalized = normalizeOrder(draft);
      expect(normalized.ok && { class: normalized.order.class, type: normalized.order.type }).toEqual({
        class: draftSelection(draft, ALPACA).class,
        type: draftSelection(draft, ALPACA).type,
      });
    }
    // A symbol half typed, or a null price (not given), changes nothing.
    expect(draftSelection({ symbol: 'AAPL;', limit_price: null }, KRAKEN)).toMatchObject({
      class: 'crypto',
      type: 'market',
    });
  });

  it('selection falls back to the provider first class and market', () => {
    expect(draftSelection({ action: 'BUY' }, KRAKEN)).toEqual({ class: 'crypto', type: 'market', action: '' });
    expect(draftSelection({ class: 'crypto', type: 'limit', action: 'sell' }, ALPACA)).toEqual({
      class: 'crypto',
      type: 'limit',
      action: 'sell',
    });
  });
});
