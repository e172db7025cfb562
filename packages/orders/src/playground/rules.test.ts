import { describe, expect, it } from 'vitest';
import { normalizeOrder } from '../order/normalize.ts';
import { now, optionsBroker, stockBroker } from '../test-fixtures.ts';
import { applyAction, applyClass, applySymbol, applyType, cleanResult } from './rules.ts';

describe('playground rules', () => {
  it('forces a market order when the action is close or cancel', () => {
    const draft = { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 150 };
    // The sample's quantity goes: a close without one closes the whole position, at every broker.
    expect(applyAction(draft, 'close')).toEqual({ symbol: 'AAPL', action: 'close', type: 'market' });
    expect(applyAction(draft, 'cancel')).toEqual({ symbol: 'AAPL', action: 'cancel', type: 'market' });
    expect(applyAction(draft, 'sell')).toEqual({ ...draft, action: 'sell' });
    // A bracket's exits are refused on close and cancel ('take_profit_price: not used with action close').
    const bracket = { ...draft, group: 'bracket', take_profit_price: 160, stop_loss_price_percent: 2 };
    expect(applyAction(bracket, 'close')).toEqual({ symbol: 'AAPL', action: 'close', type: 'market' });
  });

  it('turns a stop_limit still at the examples round for the side chosen; prices written stay', () => {
    const buy = applyType({ symbol: 'AAPL', action: 'buy', quantity: 1 }, 'stop_limit', stockBroker);
    expect(buy).toMatchObject({ limit_price: 190.5, stop_price: 185 });
    const sell = applyAction(buy, 'sell', stockBroker);
    expect(sell).toMatchObject({ action: 'sell', limit_price: 185, stop_price: 190.5 });
    expect(applyAction(sell, 'buy', stockBroker)).toMatchObject({ limit_price: 190.5, stop_price: 185 });
    const written = { ...buy, limit_price: 200, stop_price: 195 };
    expect(applyAction(written, 'sell', stockBroker)).toMatchObject({ limit_price: 200, stop_price: 195 });
  });

  it.each(['close', 'cancel'] as const)('drops legs and their group when the action becomes %s', (action) => {
    const condor = {
      symbol: 'SPY_271217P00540000',
      action: 'buy_to_open',
      'symbol[2]': 'SPY_271217P00550000',
      'action[2]': 'sell_to_open',
      'quantity[2]': 2,
      quantity: 1,
      type: 'limit',
      limit_price: -1.25,
      group: 'combo',
    };
    const closed = { symbol: 'SPY_271217P00540000', action, type: 'market' };
    expect(applyAction(condor, action)).toEqual(closed);
    const array = {
      action: 'buy',
      quantity: 1,
      group: 'oco',
      legs: [{ symbol: 'AAPL', action: 'buy' }, { symbol: 'MSFT' }],
    };
    expect(applyAction(array, action)).toEqual({ action, symbol: 'AAPL', type: 'market' });
    const indexedFirst = {
      'symbol[1]': 'AAPL',
      'action[1]': 'buy',
      'symbol[2]': 'MSFT',
      action: 'buy',
      type: 'market',
    };
    expect(applyAction(indexedFirst, action)).toEqual({ symbol: 'AAPL', action, type: 'market' });
    // (An option's own close is buy_to_close or sell_to_close: the stock legs show the order is taken.)
    for (const order of [array, indexedFirst]) {
      expect(normalizeOrder(applyAction(order, action))).toMatchObject({ ok: true });
    }
  });

  it('gives a cancel turned into an option order by its class or symbol the quantity it needs', () => {
    const cancel = { symbol: 'AAPL', action: 'cancel', type: 'market' };
    const byClass = applyClass(cancel, 'option', stockBroker, now);
    expect(byClass).toMatchObject({ class: 'option', action: 'buy_to_open', quantity: 1 });
    const bySymbol = applySymbol(cancel, 'SPY_271217C00600000');
    expect(bySymbol).toMatchObject({ class: 'option', action: 'buy_to_open', quantity: 1 });
    for (const order of [byClass, bySymbol]) expect(normalizeOrder(order, { now })).toMatchObject({ ok: true });
  });

  it("puts a chosen stop_limit's example limit on the right side of its stop (cTrader refuses it otherwise)", () => {
    const ctrader = {
      ...stockBroker,
      reference: { ...stockBroker.reference, limit_price: { examples: [2650.5] }, stop_price: { examples: [2700] } },
    };
    const order = (action: string) => ({ symbol: 'AAPL', action, quantity: 1, type: 'market' });
    expect(applyType(order('buy'), 'stop_limit', ctrader)).toMatchObject({ limit_price: 2700, stop_price: 2650.5 });
    expect(applyType(order('sell'), 'stop_limit', ctrader)).toMatchObject({ limit_price: 2650.5, stop_price: 2700 });
    // Prices already written stay as written.
    const limit = { ...order('buy'), type: 'limit', limit_price: 2600 };
    expect(applyType(limit, 'stop_limit', ctrader)).toMatchObject({ limit_price: 2600, stop_price: 2700 });
  });

  it('drops a quantity_type left without a quantity when legs with their own quantities go', () => {
    const legs = [
      { symbol: 'AAPL', action: 'buy', quantity: 1 },
      { symbol: 'MSFT', action: 'sell', quantity: 1 },
    ];
    const closing = applyAction({ legs, quantity_type: 'fixed' }, 'close');
    expect(closing).toEqual({ symbol: 'AAPL', action: 'close', type: 'market' });
    expect(normalizeOrder(closing)).toMatchObject({ ok: true });
  });

  it('drops what close and cancel refuse (a duration; a quantity and its quantity_type on cancel), and gives it back to an order', () => {
    const draft = { symbol: 'AAPL', action: 'buy', quantity: 3, quantity_type: 'cash', duration: 'gtc' };
    const canceling = applyAction(draft, 'cancel');
    expect(canceling).toEqual({ symbol: 'AAPL', action: 'cancel', type: 'market' });
    const closing = applyAction(draft, 'close');
    expect(closing).toEqual({ symbol: 'AAPL', action: 'close', quantity: 3, quantity_type: 'cash', type: 'market' });
    for (const order of [canceling, closing]) expect(normalizeOrder(order)).toMatchObject({ ok: true });
    // Back to an order: the cancel's missing quantity is the sample's again ('quantity: required' otherwise).
    expect(applyAction(canceling, 'sell', stockBroker)).toMatchObject({ action: 'sell', quantity: 1 });
    expect(applyType(canceling, 'market', stockBroker)).toMatchObject({ action: 'buy', quantity: 1 });
    expect(applyAction(closing, 'sell')).toMatchObject({ action: 'sell', quantity: 3 });
  });

  it('sets the action to buy when a type is chosen while closing or canceling', () => {
    const draft = { symbol: 'AAPL', action: 'close', type: 'market' };
    expect(applyType(draft, 'limit', stockBroker)).toEqual({
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: 190.5,
    });
    const option = { symbol: 'SPY_271217C00600000', class: 'option', action: 'cancel' };
    expect(applyType(option, 'market')).toMatchObject({ action: 'buy_to_open', type: 'market' });
  });

  it('adds and removes the prices a type takes', () => {
    const draft = { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 151 };
    expect(applyType(draft, 'stop_limit')).toMatchObject({ type: 'stop_limit', limit_price: 151, stop_price: 145 });
    expect(applyType(draft, 'stop')).toEqual({
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      type: 'stop',
      stop_price: 145,
    });
    expect(applyType(draft, 'market')).toEqual({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'market' });
  });

  it('resets the symbol to the class example and fixes the action', () => {
    const draft = { symbol: 'AAPL', action: 'sell', quantity: 1 };
    // The broker's example expires in December 2027; as of NOW (June 2025) it is moved to a current expiry.
    expect(applyClass(draft, 'option', optionsBroker, now)).toEqual({
      symbol: 'SPY_250919C00600000',
      class: 'option',
      action: 'buy_to_open',
      quantity: 1,
    });
    expect(applyClass({ ...draft, class: 'option', action: 'sell_to_close' }, 'stock', optionsBroker)).toEqual({
      symbol: 'SPY',
      class: 'stock',
      action: 'buy',
      quantity: 1,
    });
    expect(applyClass(draft, 'future')).toMatchObject({ symbol: 'ES1!', class: 'future', action: 'sell' });
  });

  it('switches the class to the symbol’s', () => {
    const draft = { symbol: 'AAPL', action: 'buy', quantity: 1 };
    expect(applySymbol(draft, 'AAPL240119C150', now)).toEqual({
      symbol: 'AAPL240119C150',
      action: 'buy_to_open',
      quantity: 1,
      class: 'option',
    });
    expect(applySymbol({ ...draft, class: 'future' }, 'ESZ4', now)).toEqual({
      ...draft,
      class: 'future',
      symbol: 'ESZ4',
    });
    expect(applySymbol({ ...draft, class: 'fund' }, 'VFIAX', now)).toEqual({
      ...draft,
      class: 'fund',
      symbol: 'VFIAX',
    });
    expect(applySymbol(draft, 'AAPL241399C1', now)).toEqual({ ...draft, symbol: 'AAPL241399C1' });
  });

  it('drops underscore fields and nulls from results', () => {
    expect(
      cleanResult({
        id: '1',
        _links: {},
        price: null,
        status: 'filled',
        legs: [{ _id: 1, symbol: 'A', x: null }, null],
      }),
    ).toEqual({ id: '1', status: 'filled', legs: [{ symbol: 'A' }] });
    expect(cleanResult('text')).toBe('text');
  });
});
