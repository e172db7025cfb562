// FOREX.com answers an order with HTTP 200 whatever happened (WIRE.md §6): the instruction's
// Status and StatusReason, then each order's. This reads ApiTradeOrderResponseDTO into our answer
// or a titled refusal:
//   {"Status":1,"StatusReason":1,"OrderId":712345681,"Orders":[{"Status":5,"StatusReason":10,…}]}
//   → "FOREX.com: Market is Closed (status reason 10)"
// The texts are the meanings of the codes as WIRE.md and its sources list them.
import type { OrderResponse } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { FOREX_TITLE, forexDescriptor } from './descriptor.ts';

/** Instruction status: 1 Accepted, 2 Red Card, 3 Yellow Card, 4 Error, 5 Pending (-1: ErrorMessage). */
const REFUSED_INSTRUCTIONS = new Set([-1, 2, 4]);

/** Order status: 1 Pending, 2 Accepted, 3 Open, 4 Cancelled, 5 Rejected, 6 Suspended, 8 Yellow Card, 9 Closed, 10 Red Card, 11 Triggered. */
const ORDER_STATUS: Record<number, [OrderResponse['status'], string]> = {
  1: ['accepted', 'pending'],
  2: ['accepted', 'accepted, working'],
  3: ['filled', 'filled, position open'],
  4: ['canceled', 'cancelled'],
  6: ['accepted', 'suspended'],
  8: ['accepted', 'awaiting dealer approval (yellow card)'],
  9: ['filled', 'filled, position closed'],
  11: ['filled', 'triggered'],
};

/** Order status reasons (the codes FOREX.com refuses an order with). */
const ORDER_REASONS: Record<number, string> = {
  3: 'This market is not available on the trading platform',
  4: 'Market is Limit Down',
  5: 'Market is Limit Up',
  6: 'Quantity is above the maximum',
  7: 'Quantity is above the maximum',
  8: 'Quantity is less than the allowed minimum',
  9: 'Market does not allow orders to be placed',
  10: 'Market is Closed',
  11: 'Market is phone only',
  12: 'The quantity must be a whole number of the market’s lot size',
  13: 'Market is Suspended',
  17: 'Market is not available to this product',
  20: 'Quantity has more decimals than allowed',
  25: 'Level is on the wrong side of the price for the order type and direction',
  30: 'Market is long only',
  32: 'Trading account is suspended',
  33: 'Trading account is closed',
  37: 'Order is no longer active',
  46: 'Stop loss or take profit must be in the opposite direction of the order',
  49: 'Level is inside the minimum distance from the price',
  59: 'Insufficient Liquidity',
  61: 'The bid/offer price entered does not overlap the current bid/offer price',
  62: 'The bid/offer price entered is older than three seconds',
  63: 'Insufficient Funds',
  76: 'Market is close only',
  78: 'Total Margin Requirement Limit has been exceeded',
  82: 'Level has more decimals than allowed',
  84: 'Insufficient Funds',
  85: 'Insufficient Funds',
  86: 'Insufficient Funds',
  87: 'Insufficient Funds',
  89: 'Insufficient Funds',
  138: 'Quantity is greater than the allowed maximum',
  148: 'Gap tolerance exceeded',
  158: 'Price tolerance exceeded: the market moved',
  160: 'Market is unavailable due to local regulations or account restrictions',
  162: 'Order quantity does not match the increment size',
};

/** Instruction status reasons (the request itself refused). */
const INSTRUCTION_REASONS: Record<number, string> = {
  7: 'Unexpected error',
  12: 'Bid must be less than or equal to the offer',
  23: 'Market id must be provided',
  24: 'Trading account id must be provided',
  30: 'Quantity must be greater than zero',
  47: 'Order applicability is not recognised',
  55: 'Market id is not recognised',
  56: 'Trading account id is not recognised',
  61: 'The order id must name an active order or open position',
  1072: 'The trading account does not belong to the client',
};

const reasonText = (table: Record<number, string>, code: number | undefined, fallback: string) =>
  `${(code !== undefined && table[code]) || fallback} (status reason ${code ?? 'unknown'})`;

function refusal(message: string): BrokerError {
  return new BrokerError(matchException(forexDescriptor.exceptions, message) ?? 'InvalidOrder', FOREX_TITLE, message);
}

/** An order's status as ours: a known status, or `accepted` with its number. */
export function orderStatus(status: number | undefined): [OrderResponse['status'], string] {
  if (status === 5 || status === 10) return ['rejected', status === 5 ? 'rejected' : 'rejected (red card)'];
  return (status !== undefined && ORDER_STATUS[status]) || ['accepted', `status ${status ?? 'unknown'}`];
}

/**
 * Throws the refusal an order answer carries: the instruction's, else its first order's. An
 * instruction in Status 4 "Error" for StatusReason 7 "Unexpected error" (or none) names no reason
 * the request was refused: the broker failed, and a submitted order may stand (WIRE.md §6), an
 * outcome settled by looking it up, never a refusal that gives the signal's credit back.
 */
function throwIfRefused(answer: Record<string, unknown>, status: number, submitted: boolean): void {
  const reason = decimalField(answer, 'StatusReason');
  if (status === 4 && (reason === undefined || reason === 7)) {
    throw new BrokerError('BrokerUnavailable', FOREX_TITLE, reasonText(INSTRUCTION_REASONS, reason, 'Error'), {
      outcomeUnknown: submitted,
    });
  }
  if (REFUSED_INSTRUCTIONS.has(status)) {
    const message = stringField(answer, 'ErrorMessage');
    throw refusal(message ?? reasonText(INSTRUCTION_REASONS, reason, 'Order request refused'));
  }
  const [order] = listOf(answer.Orders);
  const orderState = decimalField(order, 'Status');
  if (orderState === 5 || orderState === 10)
    throw refusal(reasonText(ORDER_REASONS, decimalField(order, 'StatusReason'), 'Order rejected'));
}

/**
 * ApiTradeOrderResponseDTO → our answer, or the refusal it carries. `submitted`: an answer we
 * cannot read after a submission leaves the outcome unknown.
 */
export function readTradeAnswer(body: unknown, submitted: boolean): OrderResponse {
  const answer = asRecord(body);
  const status = decimalField(answer, 'Status');
  if (!answer || status === undefined) {
    throw new BrokerError('BrokerUnavailable', FOREX_TITLE, 'unexpected order answer', { outcomeUnknown: submitted });
  }
  throwIfRefused(answer, status, submitted);
  const [order] = listOf(answer.Orders);
  const id = stringField(answer, 'OrderId') ?? stringField(order, 'OrderId');
  if (!id || id === '0') {
    throw new BrokerError('BrokerUnavailable', FOREX_TITLE, 'no order id in the answer', { outcomeUnknown: submitted });
  }
  const orderState = decimalField(order, 'Status');
  const [ours, words] = status === 3 ? orderStatus(8) : status === 5 ? orderStatus(1) : orderStatus(orderState);
  const price = decimalField(order, 'Price');
  return {
    id,
    status: ours,
    status_description: `FOREX.com order ${words}`,
    ...(ours === 'filled' && price !== undefined && price > 0 ? { price } : {}),
  };
}

/** ApiSimulateTradeOrderResponseDTO → a draft naming the margin the trade would take, or its refusal. */
export function readSimulation(body: unknown, id: string): OrderResponse {
  const answer = asRecord(body);
  const status = decimalField(answer, 'Status');
  if (!answer || status === undefined)
    throw new BrokerError('BrokerUnavailable', FOREX_TITLE, 'unexpected simulation answer');
  throwIfRefused(answer, status, false);
  const margin = decimalField(answer, 'SimulatedTotalMarginRequirement');
  const cash = decimalField(answer, 'SimulatedCash');
  const effects = [
    margin !== undefined ? `margin required ${margin}` : undefined,
    cash !== undefined ? `cash ${cash}` : undefined,
  ].filter(Boolean);
  return {
    id,
    status: 'draft',
    status_description: `FOREX.com simulated the trade${effects.length ? `: ${effects.join(', ')}` : ''}; nothing was placed`,
  };
}
