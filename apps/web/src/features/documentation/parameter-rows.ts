// The request-parameters table (SPEC §2), drawn from the provider's reference: a row only for
// what the broker supports, with required flag, allowed values, examples and comments.
import {
  DURATION_MEANINGS,
  type Duration,
  ORDER_CLASS_INFO,
  ORDER_PARAMETERS,
  ORDER_TYPE_LABELS,
  type OrderClass,
  type OrderParameter,
  type OrderType,
  type Provider,
  providerDefaultDuration,
  providerTypes,
  QUANTITY_TYPE_MEANINGS,
  type QuantityType,
} from '@router/orders';

export interface ParameterValue {
  value: string;
  meaning?: string;
  /** Whether clicking puts it into the order (extra lists key names, not values). */
  pickable: boolean;
}

export interface ParameterExample {
  value: string | number;
  note?: string;
}

export interface ParameterRow {
  name: OrderParameter;
  advanced: boolean;
  required: string;
  values: ParameterValue[];
  examples: ParameterExample[];
  comments: string[];
}

const MEANINGS: Partial<Record<OrderParameter, (value: string) => string | undefined>> = {
  class: (value) => ORDER_CLASS_INFO[value as OrderClass]?.label,
  type: (value) => ORDER_TYPE_LABELS[value as OrderType],
  duration: (value) => DURATION_MEANINGS[value as Duration],
  quantity_type: (value) => QUANTITY_TYPE_MEANINGS[value as QuantityType],
};

/** Our own rules (SPEC §5), added to the broker's comments. */
const RULES: Partial<Record<OrderParameter, string>> = {
  quantity:
    'A close takes it as the part of the position to close; a cancel takes none (it cancels every open order on the symbol).',
  quantity_type:
    'Default fixed. percent_of_equity 50 means 50 percent of the equity. Not given with cancel, nor with a close without quantity (that closes the whole position).',
  type: 'Advanced: when omitted, limit_price makes a limit order, a stop price a stop order, both a stop_limit order, none a market order.',
  group: 'Default combo for multileg orders.',
  legs: 'Leg 1 is symbol and action; legs 2 to 8 are indexed parameters: symbol[2], action[2], quantity[2], class[2], type[2], limit_price[2] and so on. A legs array of {symbol, action, quantity} works too.',
  extra: 'Broker-specific values as an object, e.g. "extra": {"key": "value"}; only the keys listed are accepted.',
};

function requiredText(name: OrderParameter, provider: Provider): string {
  const { reference } = provider;
  if (name === 'quantity' && reference.quantity?.required) return 'Yes, except for close and cancel';
  if (name === 'limit_price') {
    if (reference.limit_price?.required || !providerTypes(reference).includes('market')) return 'Yes';
    return 'For limit and stop_limit orders';
  }
  if (name === 'stop_price' && !reference.stop_price?.required) return 'For stop and stop_limit orders';
  return reference[name]?.required ? 'Yes' : 'No';
}

function symbolExamples(provider: Provider): ParameterExample[] {
  const symbol = provider.reference.symbol;
  return (symbol?.examples ?? []).map((value, index) => {
    const orderClass = symbol?.examplesClass?.[index];
    const notes = [
      orderClass ? ORDER_CLASS_INFO[orderClass]?.label : undefined,
      symbol?.examplesBranch?.[index] ? `branch ${symbol.examplesBranch[index]}` : undefined,
      symbol?.examplesAccount?.[index] ? `account ${symbol.examplesAccount[index]}` : undefined,
    ].filter((note): note is string => note !== undefined);
    return notes.length > 0 ? { value, note: notes.join(', ') } : { value };
  });
}

/** The default durations as the hook gives them at this broker (a day-only broker has no gtc). */
function durationRule(provider: Provider): string {
  const limit = providerDefaultDuration(provider, 'limit');
  const market = providerDefaultDuration(provider, 'market');
  const defaults = limit === market ? `Default ${limit}` : `Default ${limit} for limit and stop orders, else ${market}`;
  return `${defaults}. Not given with close or cancel.`;
}

export function parameterRows(provider: Provider): ParameterRow[] {
  return ORDER_PARAMETERS.flatMap((name) => {
    const parameter = provider.reference[name];
    if (!parameter) return [];
    const meaning = MEANINGS[name];
    const rule = name === 'duration' ? durationRule(provider) : RULES[name];
    const comments = [parameter.comments, name === 'symbol' ? parameter.examplesComment : undefined, rule];
    return [
      {
        name,
        advanced: name === 'type',
        required: requiredText(name, provider),
        values: (parameter.values ?? []).map((value) => {
          const text = meaning?.(value);
          return { value, ...(text ? { meaning: text } : {}), pickable: name !== 'extra' };
        }),
        examples: name === 'symbol' ? symbolExamples(provider) : (parameter.examples ?? []).map((value) => ({ value })),
        comments: comments.filter((comment): comment is string => typeof comment === 'string' && comment !== ''),
      },
    ];
  });
}
