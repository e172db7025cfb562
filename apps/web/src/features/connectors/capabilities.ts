// What a provider supports, read from its reference (the same declaration the order validator
// checks): asset classes, order types, brackets (take profit and stop loss) and multi-leg orders.
import { ORDER_CLASS_INFO, ORDER_TYPE_LABELS, type Provider, providerClasses, providerTypes } from '@router/orders';

export interface Capabilities {
  classes: string[];
  types: string[];
  brackets: boolean;
  multiLeg: boolean;
}

export function capabilitiesOf(provider: Provider): Capabilities {
  const { reference } = provider;
  return {
    classes: providerClasses(reference).map((c) => ORDER_CLASS_INFO[c].label),
    types: providerTypes(reference).map((t) => ORDER_TYPE_LABELS[t]),
    brackets: Boolean(reference.take_profit_price && reference.stop_loss_price),
    multiLeg: Boolean(reference.legs),
  };
}

/** 'Stock, Option · Market, Limit, Stop · brackets · multi-leg' */
export function capabilitiesLine(provider: Provider): string {
  const c = capabilitiesOf(provider);
  return [
    c.classes.join(', '),
    c.types.join(', '),
    ...(c.brackets ? ['brackets'] : []),
    ...(c.multiLeg ? ['multi-leg'] : []),
  ]
    .filter(Boolean)
    .join(' · ');
}
