// What the web app needs to know about this installation, before anyone signs in: its public
// origin (webhook URLs are built on it; the app warns when TradingView cannot reach it) and
// the support address of the footer's Contact Support.
import { builder } from './builder.ts';

interface Site {
  publicUrl: string;
  supportEmail: string | undefined;
}

const SiteRef = builder.objectRef<Site>('Site').implement({
  description: 'This installation, as configured by its operator (PUBLIC_URL, SUPPORT_EMAIL).',
  fields: (t) => ({
    publicUrl: t.exposeString('publicUrl', { description: 'PUBLIC_URL: webhooks are {publicUrl}/hook/{shortKey}' }),
    supportEmail: t.exposeString('supportEmail', { nullable: true, description: 'SUPPORT_EMAIL; null when unset' }),
  }),
});

builder.queryField('site', (t) =>
  t.field({
    type: SiteRef,
    resolve: (_root, _args, ctx) => ({
      publicUrl: ctx.services.config.PUBLIC_URL,
      supportEmail: ctx.services.config.SUPPORT_EMAIL,
    }),
  }),
);
