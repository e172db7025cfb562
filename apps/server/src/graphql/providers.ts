// SPEC §7: `providers` (a JSON string of every working provider), `provider(name)`, and
// `providerMetatraderBranches(search)` (server names for the connect form's branch field).
import type { BrokerBranch } from '@router/brokers';
import { type Provider, withCurrentExamples } from '@router/orders';
import { BRANCH_PROVIDER, offeredProviders, searchBranches } from '../modules/connectors/index.ts';
import { builder } from './builder.ts';
import { requireViewer } from './guards.ts';

const ProviderBranchRef = builder.objectRef<BrokerBranch>('ProviderBranch').implement({
  description: 'A broker server an account can be connected on (SPEC §3 Connector.branch).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'the server name the connect form takes, e.g. ICMarketsSC-Demo' }),
    broker: t.exposeString('broker', { description: 'the company running it, e.g. Raw Trading Ltd' }),
    platform: t.exposeString('platform', { nullable: true, description: 'mt4 or mt5' }),
  }),
});

/** The providers with their dated examples (option expiries, contract months) current as of today. */
function currentProviders(providers: readonly Provider[], now = Date.now()): Provider[] {
  return providers.map((provider) => withCurrentExamples(provider, now));
}

builder.queryFields((t) => ({
  providers: t.string({
    description:
      "JSON array of SPEC §3 Provider objects of the working adapters; an OAuth broker this server has no app credentials for is 'unavailable', its help saying why.",
    resolve: (_root, _args, ctx) => JSON.stringify(currentProviders(offeredProviders(ctx.services))),
  }),
  provider: t.string({
    nullable: true,
    description: 'JSON of one Provider, or null when unknown.',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, { name }, ctx) => {
      const provider = offeredProviders(ctx.services).find((p) => p.name === name);
      return provider ? JSON.stringify(withCurrentExamples(provider, Date.now())) : null;
    },
  }),
  providerMetatraderBranches: t.field({
    type: [ProviderBranchRef],
    description:
      "MetaTrader servers whose name or broker contains `search` (2 characters or more; MetaApi's lists of known MT4 and MT5 servers), for the connect form's server field.",
    args: { search: t.arg.string({ required: true }) },
    resolve: (_root, { search }, ctx) => {
      requireViewer(ctx);
      return searchBranches(ctx.services, BRANCH_PROVIDER, search);
    },
  }),
}));
