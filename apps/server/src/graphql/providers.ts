// SPEC §7: `providers` (a JSON string of every working provider) and `provider(name)`.
import { builder } from './builder.ts';

builder.queryFields((t) => ({
  providers: t.string({
    description: 'JSON array of SPEC §3 Provider objects of the working adapters.',
    resolve: (_root, _args, ctx) => JSON.stringify(ctx.services.brokers.providers()),
  }),
  provider: t.string({
    nullable: true,
    description: 'JSON of one Provider, or null when unknown.',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_root, { name }, ctx) => {
      const provider = ctx.services.brokers.providers().find((p) => p.name === name);
      return provider ? JSON.stringify(provider) : null;
    },
  }),
}));
