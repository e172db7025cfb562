import { builder } from './builder.ts';

builder.queryField('health', (t) =>
  t.string({
    description: 'Always "ok" while the server answers; readiness is GET /readyz.',
    resolve: () => 'ok',
  }),
);
