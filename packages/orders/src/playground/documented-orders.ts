// Every order the documentation page and the playground show for a provider, named, as JSON text
// with the platforms' placeholders filled in as they send it: the default payload, the available
// examples, the platform alerts, the symbol examples of the parameters table (each of the class it
// is listed as) and the playground's sample for each class, type and action. Tests post them to
// hooks, so that what the page shows and what the hook takes cannot drift apart.
import type { OrderAction, OrderClass, Provider } from '../types.ts';
import { alertJson, alertMessages, fillPlaceholders } from './alert-messages.ts';
import { exampleJson, isExampleAvailable, ORDER_EXAMPLES } from './examples.ts';
import { applyAction, applyClass, applyType } from './rules.ts';
import {
  buildSampleOrder,
  defaultExamplePayload,
  firstActionFor,
  playgroundChoices,
  providerActions,
} from './sample.ts';

export type DocumentedOrder = [name: string, json: string];

/** What the page shows outright: the default payload, the available examples, the platform alerts. */
export function shownOrders(provider: Provider, now = Date.now()): DocumentedOrder[] {
  const examples = ORDER_EXAMPLES.filter((example) => isExampleAvailable(example, provider)).map(
    (example): DocumentedOrder => [`example ${example.id}`, exampleJson(example, provider, now)],
  );
  const alerts = alertMessages(provider).map((message): DocumentedOrder => [`alert ${message.id}`, alertJson(message)]);
  const { examples: symbols = [], examplesClass = [] } = provider.reference.symbol ?? {};
  const symbolExamples = symbols.map((symbol, index): DocumentedOrder => {
    const orderClass = examplesClass[index];
    const payload = { ...defaultExamplePayload(provider), symbol };
    const order = orderClass ? { ...payload, class: orderClass, action: firstActionFor(orderClass) } : payload;
    return [`symbol example ${symbol}`, JSON.stringify(order)];
  });
  const shown: DocumentedOrder[] = [
    ['default payload', JSON.stringify(defaultExamplePayload(provider), null, 2)],
    ...examples,
    ...alerts,
    ...symbolExamples,
  ];
  return filled(shown, provider, now);
}

/**
 * The playground's order for each class, type and `actions` of the class (default: every one
 * offered), as its selectors make it: the first sample, then class, type and action chosen.
 */
export function sampleOrders(
  provider: Provider,
  options: {
    now?: number;
    classes?: readonly OrderClass[];
    actions?: (orderClass: OrderClass) => readonly OrderAction[];
  } = {},
): DocumentedOrder[] {
  const now = options.now ?? Date.now();
  const samples: DocumentedOrder[] = [];
  for (const orderClass of options.classes ?? playgroundChoices(provider).classes) {
    for (const type of playgroundChoices(provider, orderClass).types) {
      for (const action of options.actions?.(orderClass) ?? providerActions(provider.reference, orderClass)) {
        const first = buildSampleOrder({ provider }, now);
        const typed = applyType(
          applyClass(first, orderClass, provider, () => now),
          type,
          provider,
        );
        const sample = applyAction(typed, action, provider);
        samples.push([`sample ${orderClass} ${type} ${action}`, JSON.stringify(sample, null, 2)]);
      }
    }
  }
  return filled(samples, provider, now);
}

/** Each order as the platform sends it: its placeholders filled as a test signal fills them. */
function filled(orders: DocumentedOrder[], provider: Provider, now: number): DocumentedOrder[] {
  return orders.map(([name, json]) => [name, fillPlaceholders(json, provider, new Date(now))]);
}
