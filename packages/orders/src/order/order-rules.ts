// Rules an order must satisfy whatever the provider (SPEC §5 "Order rules from the docs"):
// which prices go with which type, positive amounts, stop percentages in (0, 100), one way of
// giving a stop, and what groups need. Runs on the built order, so expressions are already numbers.
import { isExitAction } from '../enumerations.ts';
import { refuse } from '../errors.ts';
import type { Order, OrderLeg } from '../types.ts';
import type { LegFieldName } from './indexed-legs.ts';

const STOP_FIELDS = ['stop_price', 'stop_price_distance', 'stop_price_percent'] as const;
const STOP_LOSS_FIELDS = ['stop_loss_price', 'stop_loss_price_distance', 'stop_loss_price_percent'] as const;
const EXIT_FIELDS = ['limit_price', ...STOP_FIELDS, 'take_profit_price', ...STOP_LOSS_FIELDS] as const;

export function checkOrderRules(order: Order, legFieldName: LegFieldName): void {
  checkQuantity(order.quantity, order.quantity_type, 'quantity');
  checkPrices(order);
  checkExit(order);
  checkTypeFields(order);
  checkGroup(order);
  order.legs?.forEach((leg, index) => {
    checkLeg(leg, order.quantity_type, (field) => legFieldName(index, field));
  });
}

function checkQuantity(quantity: number | undefined, quantityType: Order['quantity_type'], field: string): void {
  if (quantity === undefined) return;
  // {{strategy.position_size}} is negative when short: the sign is no direction here, the action is.
  if (quantity < 0) {
    throw refuse(
      field,
      `must be greater than 0; the action gives the direction: send ${-quantity} with the action that sells or buys`,
    );
  }
  if (quantity === 0) throw refuse(field, 'must be greater than 0');
  if ((quantityType === 'percent_of_equity' || quantityType === 'percent_of_position') && quantity > 100) {
    throw refuse(field, `must be at most 100 with quantity_type ${quantityType} (50 means 50 %)`);
  }
}

function checkPrices(order: Order): void {
  // A combo's net price may be zero or negative: negative is a credit received, positive a debit paid.
  if (order.limit_price !== undefined && order.limit_price <= 0 && !order.legs) {
    throw refuse('limit_price', 'must be greater than 0');
  }
  for (const field of [
    'stop_price',
    'take_profit_price',
    'stop_loss_price',
    'stop_price_distance',
    'stop_loss_price_distance',
  ] as const) {
    const value = order[field];
    if (value !== undefined && value <= 0) throw refuse(field, 'must be greater than 0');
  }
  // 100 % away from the price is a stop at zero (a long's stop loss that never triggers, or a
  // sell stop at 0): no stop at all, so refused like anything past it.
  for (const field of ['stop_price_percent', 'stop_loss_price_percent'] as const) {
    const value = order[field];
    if (value !== undefined && (value <= 0 || value >= 100))
      throw refuse(field, 'must be greater than 0 and less than 100 (100 % away is a stop at 0)');
  }
  for (const fields of [STOP_FIELDS, STOP_LOSS_FIELDS]) {
    const given = fields.filter((field) => order[field] !== undefined);
    if (given.length > 1) throw refuse(given[1] ?? fields[0], `give only one of ${fields.join(', ')}`);
  }
  checkExitSides(order);
}

/**
 * Exits that would close the position as it opens, whatever the fill: a long's take profit at or
 * under its stop loss (one of the two is marketable: a sell limit at 90 fills at a market of 100),
 * its stop loss at or over the limit it buys at (it fills there or lower, so under the stop), or
 * its take profit at or under the stop it buys at (it fills there or higher, so over the limit).
 * A short's the other way round. And a long's stop loss distance at or past the limit it buys at,
 * which puts the stop at or below 0.
 */
function checkExitSides(order: Order): void {
  const { take_profit_price: profit, stop_loss_price: loss, limit_price: limit, stop_price: stop } = order;
  // Close and cancel take no exits at all (checkExit says so); legs have no one entry price.
  if (order.legs || isExitAction(order.action)) return;
  const long = order.action.startsWith('buy');
  const [up, down] = long ? (['above', 'below'] as const) : (['below', 'above'] as const);
  const beyond = (a: number, b: number) => (long ? a > b : a < b);
  if (profit !== undefined && loss !== undefined && !beyond(profit, loss)) {
    throw refuse('take_profit_price', `must be ${up} stop_loss_price (${loss}) for a ${order.action}`);
  }
  const buysAtLimit = order.type === 'limit' || order.type === 'stop_limit';
  if (loss !== undefined && limit !== undefined && buysAtLimit && !beyond(limit, loss)) {
    throw refuse('stop_loss_price', `must be ${down} limit_price (${limit}) for a ${order.action}`);
  }
  if (profit !== undefined && stop !== undefined && order.type === 'stop' && !beyond(profit, stop)) {
    throw refuse('take_profit_price', `must be ${up} stop_price (${stop}) for a ${order.action}`);
  }
  // A long fills at its limit or lower: a stop loss that far under the fill is at or below 0, no
  // stop at all (as a stop_loss_price_percent of 100).
  const distance = order.stop_loss_price_distance;
  if (long && distance !== undefined && limit !== undefined && buysAtLimit && distance >= limit) {
    throw refuse(
      'stop_loss_price_distance',
      `must be less than limit_price (${limit}) for a ${order.action}: the stop loss would be at or below 0`,
    );
  }
}

function checkTypeFields(order: Order): void {
  const takesLimit = order.type === 'limit' || order.type === 'stop_limit';
  const takesStop = order.type === 'stop' || order.type === 'stop_limit';
  if (order.limit_price !== undefined && !takesLimit) {
    throw refuse('limit_price', `only for limit and stop_limit orders, not ${order.type}`);
  }
  const stopField = STOP_FIELDS.find((field) => order[field] !== undefined);
  if (stopField && !takesStop) throw refuse(stopField, `only for stop and stop_limit orders, not ${order.type}`);
  const legsPriced = order.legs?.every((leg) => leg.limit_price !== undefined) ?? false;
  if (takesLimit && order.limit_price === undefined && !legsPriced) {
    throw refuse('limit_price', `required for ${order.type} orders`);
  }
  if (takesStop && !stopField) throw refuse('stop_price', `required for ${order.type} orders`);
}

function checkExit(order: Order): void {
  if (!isExitAction(order.action)) return;
  // Cancel withdraws open orders and close flattens a position at the market (SPEC §4: close and
  // cancel force type market; every broker closes with a market order): brackets mean nothing
  // there, and neither has a price of its own. Refused rather than ignored: a close given a
  // limit_price would otherwise sell at the market, below the trader's limit.
  const field = EXIT_FIELDS.find((name) => order[name] !== undefined);
  if (field) throw refuse(field, `not used with action ${order.action}`);
  if (order.type !== 'market') throw refuse('type', `not used with action ${order.action}`);
  if (order.legs) throw refuse('legs', `not used with action ${order.action}`);
}

function checkGroup(order: Order): void {
  if (order.group === undefined) return;
  if (order.group === 'bracket') {
    if (order.legs) throw refuse('group', 'bracket takes take_profit_price and stop_loss_price, not legs');
    if (order.take_profit_price === undefined && !STOP_LOSS_FIELDS.some((field) => order[field] !== undefined)) {
      throw refuse('group', 'bracket needs take_profit_price or a stop loss');
    }
  } else if (!order.legs) {
    throw refuse('group', `${order.group} needs legs (a legs array or fields such as symbol[2])`);
  }
}

function checkLeg(leg: OrderLeg, quantityType: Order['quantity_type'], name: (field: string) => string): void {
  checkQuantity(leg.quantity, quantityType, name('quantity'));
  // A leg carries no stop price: a stop or stop_limit leg would lose its stop on the way out.
  if (leg.type === 'stop' || leg.type === 'stop_limit') {
    throw refuse(name('type'), `${leg.type} is not a leg type; use market or limit`);
  }
  // Only a combo's net price may be zero or a credit; a leg's own limit is one instrument's price.
  if (leg.limit_price !== undefined && leg.limit_price <= 0)
    throw refuse(name('limit_price'), 'must be greater than 0');
  if (leg.limit_price !== undefined && leg.type !== 'limit') {
    throw refuse(name('limit_price'), `only for limit legs, not ${leg.type ?? 'market'}`);
  }
  if (leg.type === 'limit' && leg.limit_price === undefined)
    throw refuse(name('limit_price'), 'required for limit legs');
}
