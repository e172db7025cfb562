// Reading Schwab's order preview (POST /accounts/{hash}/previewOrder, sent the same order JSON
// as a placement, as Schwab's clients do). Answer:
//   {"orderId":0,"orderStrategy":{"price":185.5,"orderBalance":{"orderValue":1855,"projectedBuyingPower":...}},
//    "orderValidationResult":{"rejects":[{"message":"..."}],"warns":[...],"accepts":[...]}}
// A reject is what placing would be refused for; warnings are passed on in the description.
import type { OrderResponse } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { SCHWAB_TITLE } from './descriptor.ts';

const INSUFFICIENT = /insufficient|buying power|not enough (funds|cash)/i;

function messages(result: Record<string, unknown> | undefined, key: string): string[] {
  return listOf(result?.[key]).flatMap((detail) => {
    const message = stringField(detail, 'message') ?? stringField(detail, 'activityMessage');
    return message ? [message] : [];
  });
}

export function previewOf(body: unknown, clientOrderId: string): OrderResponse {
  const record = asRecord(body);
  const result = asRecord(record?.orderValidationResult);
  const [reject] = messages(result, 'rejects');
  if (reject)
    throw new BrokerError(INSUFFICIENT.test(reject) ? 'InsufficientFunds' : 'InvalidOrder', SCHWAB_TITLE, reject);
  const strategy = asRecord(record?.orderStrategy);
  const price = decimalField(strategy, 'price');
  const value = decimalField(asRecord(strategy?.orderBalance), 'orderValue');
  const warnings = [...messages(result, 'warns'), ...messages(result, 'alerts'), ...messages(result, 'reviews')];
  const parts = ['Preview, nothing placed.'];
  if (value !== undefined) parts.push(`Order value ${value}.`);
  if (warnings.length) parts.push(`Schwab warns: ${warnings.join('; ')}`);
  return {
    id: clientOrderId,
    status: 'draft',
    status_description: parts.join(' '),
    ...(price !== undefined && price > 0 ? { price } : {}),
  };
}
