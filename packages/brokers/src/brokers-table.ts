// `npm run brokers` prints what every broker supports, as a Markdown table drawn from each
// folder's descriptor (`reference` and `has`), so no hand-kept list goes stale.
import { fileURLToPath } from 'node:url';
import type { Capability } from './core/capabilities.ts';
import { echoesClientOrderId, summarize } from './core/capabilities.ts';
import type { BrokerModule } from './core/define.ts';
import { isUnavailable } from './core/unavailable.ts';
import { brokerModules } from './discover.ts';

const yes = (value: Capability) => (value === 'emulated' ? 'emulated' : value ? 'yes' : '—');

export function brokersTable(modules: readonly BrokerModule[] = brokerModules): string {
  const header = [
    'provider',
    'sign-in',
    'classes',
    'order types',
    'durations',
    'brackets',
    'multi-leg',
    'client order id',
    'found again by',
  ];
  const rows = modules.map(({ descriptor }) => {
    const { has, authentication } = descriptor;
    const provider = `${descriptor.title} (\`${descriptor.name}\`${descriptor.status === 'active' ? '' : `, ${descriptor.status}`})`;
    // Nothing to summarize: it cannot be connected (its help text says why).
    if (isUnavailable(descriptor)) return [provider, ...header.slice(1).map(() => '—')];
    const summary = summarize(descriptor);
    const routes = [
      has.findOrderByClientId && 'client order id',
      has.findOrderByBrokerId && 'broker order id',
      has.listRecentOrders && (echoesClientOrderId(descriptor) ? 'recent orders (echoed id)' : 'recent orders (terms)'),
    ].filter(Boolean);
    return [
      provider,
      authentication.type === 'open' ? 'OAuth' : authentication.credentials.join(', ') || 'none',
      summary.classes.join(', '),
      summary.orderTypes.join(', '),
      summary.durations.join(', '),
      yes(has.brackets),
      yes(has.multiLeg),
      yes(summary.clientOrderId),
      routes.join(', '),
    ];
  });
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(brokersTable());
