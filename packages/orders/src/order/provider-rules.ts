// Checks an order against what its provider declares (SPEC §3 Provider.reference). A parameter
// absent from the reference is unsupported: if the signal carries it the order is refused, never
// silently stripped. Refusals are the provider's limits, so they carry its title:
//   "Kraken: stop_loss_price: not supported"
import { isExitAction } from '../enumerations.ts';
import { refuse } from '../errors.ts';
import {
  ORDER_PARAMETERS,
  type Order,
  type OrderClass,
  type OrderParameter,
  type Provider,
  type ProviderReference,
} from '../types.ts';
import { providerDefaultDuration } from './build-order.ts';
import type { LegFieldName } from './indexed-legs.ts';
import type { RawOrder } from './raw-schema.ts';

export function providerTitle(provider: Provider): string {
  return provider.title || 'Brokerage';
}

/**
 * Parameters the router itself acts on, whatever the broker: `client_id` is the signal's
 * idempotency key (the broker receives our signal id as its client order id where it takes one).
 */
// `time`/`timestamp` are read by the webhook's stale-signal guard, never sent to a broker.
const ROUTER_PARAMETERS: ReadonlySet<string> = new Set(['client_id', 'time', 'timestamp']);

/** Every field the sender gave must be one the provider supports. Runs before any evaluation. */
export function checkSupported(raw: RawOrder, provider: Provider, legFieldName: LegFieldName): void {
  const { reference } = provider;
  const title = providerTitle(provider);
  for (const [field, value] of Object.entries(raw)) {
    if (value === undefined || ROUTER_PARAMETERS.has(field)) continue;
    if (!reference[field as OrderParameter]) throw refuse(field, 'not supported', title);
  }
  raw.legs?.forEach((leg, index) => {
    for (const [field, value] of Object.entries(leg)) {
      if (value !== undefined && !reference[field as OrderParameter]) {
        throw refuse(legFieldName(index, field), 'not supported', title);
      }
    }
  });
  const extraKeys = reference.extra?.values;
  if (raw.extra && extraKeys && extraKeys.length > 0) {
    const unknown = Object.keys(raw.extra).find((key) => !extraKeys.includes(key));
    if (unknown !== undefined) throw refuse(`extra.${unknown}`, `not supported; use ${extraKeys.join(', ')}`, title);
  }
}

/** Enumerated values, defaults included, and required parameters. May adjust a defaulted duration. */
export function checkProviderValues(order: Order, raw: RawOrder, provider: Provider, legFieldName: LegFieldName): void {
  const { reference } = provider;
  const title = providerTitle(provider);
  const check = (parameter: OrderParameter, value: string, field: string, orderClass?: OrderClass): void => {
    const forClass = orderClass === undefined ? undefined : reference[parameter]?.byClass?.[orderClass];
    if (forClass && !forClass.includes(value)) {
      throw refuse(field, `${value} is not supported for ${orderClass}; use ${forClass.join(', ')}`, title);
    }
    const values = allowedValues(reference, parameter);
    if (!values || values.includes(value)) return;
    const why = reference[parameter]?.unsupported?.[value];
    throw refuse(field, `${value} is not supported${why ? ` (${why})` : ''}; use ${values.join(', ')}`, title);
  };
  const types = allowedValues(reference, 'type');
  if (raw.type === undefined && order.type === 'market' && types && !types.includes('market')) {
    throw refuse('limit_price', `required (${title} takes no market orders)`, title);
  }
  // A class is refused on the field that gave it: the class written, else the symbol it was read from.
  const classField = (index: number): string => {
    if (raw.legs?.[index]?.class !== undefined) return legFieldName(index, 'class');
    return raw.class !== undefined ? 'class' : legFieldName(index, 'symbol');
  };
  if (order.legs) {
    order.legs.forEach((leg, index) => {
      check('class', leg.class, classField(index));
    });
  } else check('class', order.class, raw.class !== undefined ? 'class' : 'symbol');
  check('type', order.type, 'type', order.class);
  check(
    'action',
    order.action,
    order.legs ? legFieldName(0, 'action') : 'action',
    order.legs?.[0]?.class ?? order.class,
  );
  check('quantity_type', order.quantity_type, 'quantity_type');
  if (order.group !== undefined) check('group', order.group, 'group');
  const durations = allowedValues(reference, 'duration');
  if (durations && !durations.includes(order.duration)) {
    if (raw.duration !== undefined) check('duration', order.duration, 'duration');
    // A default the provider lacks (gtc at a day-only broker) yields to the provider's first.
    else order.duration = providerDefaultDuration(provider, order.type);
  }
  order.legs?.forEach((leg, index) => {
    check('action', leg.action, legFieldName(index, 'action'), leg.class);
    if (leg.type !== undefined) check('type', leg.type, legFieldName(index, 'type'), leg.class);
  });
  // The ids the broker takes where it sends client_id on (MetaTrader: the order comment): refused
  // here, as the broker's mapper would refuse it, so a test webhook and the playground do too.
  const idPattern = reference.client_id?.pattern;
  if (order.client_id !== undefined && idPattern && !new RegExp(idPattern).test(order.client_id)) {
    // The rule as the reference's comment opens: "Up to 10 letters, digits or _, shown as …".
    const rule = reference.client_id?.comments?.split(/\.(?:\s|$)/)[0];
    throw refuse('client_id', rule ? rule.charAt(0).toLowerCase() + rule.slice(1) : `must match ${idPattern}`, title);
  }
  for (const parameter of ORDER_PARAMETERS) {
    if (!reference[parameter]?.required || order[parameter] !== undefined) continue;
    if (parameter === 'quantity' && isExitAction(order.action)) continue;
    throw refuse(parameter, 'required', title);
  }
}

function allowedValues(reference: ProviderReference, parameter: OrderParameter): string[] | undefined {
  const values = reference[parameter]?.values;
  return values && values.length > 0 ? values : undefined;
}
