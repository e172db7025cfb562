// SPEC §7 orderPreview(connectorKey, accountId, data): the playground's Test button.
import { previewOrder } from '../modules/signals/index.ts';
import { builder } from './builder.ts';
import { requireViewer } from './guards.ts';

builder.mutationFields((t) => ({
  orderPreview: t.field({
    type: 'JSON',
    description:
      'Validates the order (data: its JSON text) as the webhook would and asks the broker for a preview; ' +
      'nothing is placed or charged. Result: {id, status, status_description, price?, order}.',
    args: {
      connectorKey: t.arg.string({ required: true }),
      accountId: t.arg.string(),
      data: t.arg.string({ required: true }),
    },
    resolve: (_root, args, ctx) => previewOrder(ctx.services, requireViewer(ctx).userId, args),
  }),
}));
