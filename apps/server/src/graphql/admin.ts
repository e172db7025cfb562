// SPEC §7 admin calls (administrators only: FORBIDDEN otherwise, UNAUTHENTICATED when anonymous),
// the proxy's apply and reset, professional status, and the audit log (issue 15).
import { DEFAULT_REFERRER_CREDITS, DEFAULT_REWARD_CREDITS } from '@router/shared';
import type { ReferrerRow } from '../db/repositories/referrer.repository.ts';
import { type AuditEntryView, listAudit } from '../modules/admin/audit.ts';
import { setProfessional } from '../modules/admin/professional.ts';
import { endProxy, startProxy } from '../modules/admin/proxy.ts';
import { createReferrer, deleteReferrer } from '../modules/admin/referrers.ts';
import { rewardCredits } from '../modules/admin/reward.ts';
import { referrerStatsReport } from '../modules/admin/stats-report.ts';
import { builder } from './builder.ts';
import { UserRef } from './user.ts';

const AdminReferrerRef = builder.objectRef<ReferrerRow>('AdminReferrer').implement({
  description: 'SPEC §3 Referrer link: a referral campaign. Its link is {origin}/signup/{code}.',
  fields: (t) => ({
    code: t.exposeString('code'),
    name: t.exposeString('name', { nullable: true }),
    providerName: t.exposeString('providerName', { nullable: true }),
    credits: t.exposeInt('credits'),
    createdAt: t.float({ description: 'milliseconds since the epoch', resolve: (r) => r.createdAt.getTime() }),
  }),
});

const AdminAuditEntryRef = builder.objectRef<AuditEntryView>('AdminAuditEntry').implement({
  description: 'One entry of the administrators’ audit log (append-only).',
  fields: (t) => ({
    id: t.exposeFloat('id'),
    createdAt: t.exposeFloat('createdAt', { description: 'milliseconds since the epoch' }),
    adminEmail: t.exposeString('adminEmail'),
    targetEmail: t.exposeString('targetEmail', { nullable: true }),
    action: t.exposeString('action', {
      description:
        'proxy_on, proxy_off, reward, referrer_create, referrer_delete, stats_download, professional_grant, professional_remove, proxied_mutation, hooks_pause_all or hooks_resume_all (hooksPause / hooksResume of everyone)',
    }),
    details: t.exposeString('details', { description: 'JSON text: the values of the action' }),
  }),
});

builder.mutationFields((t) => ({
  adminAccountReward: t.boolean({
    description: `Adds one-time credits (default ${DEFAULT_REWARD_CREDITS} in the form) to a confirmed user's account.`,
    args: {
      email: t.arg.string({ required: true }),
      credits: t.arg.int({ required: true }),
      idempotencyKey: t.arg.string({
        description:
          'Optional, one per form submission (8 to 64 letters, digits, - or _): a resubmission with the same key grants nothing more and answers true again; the same key with another email or credits is refused.',
      }),
    },
    resolve: (_root, args, ctx) => rewardCredits(ctx, args),
  }),
  adminReferrerCreate: t.field({
    type: AdminReferrerRef,
    description: `A referral campaign: name (≤ 16 letters, digits, spaces; required without providerName), credits (default ${DEFAULT_REFERRER_CREDITS} in the form) granted when a user signed up through its link confirms the email.`,
    args: {
      name: t.arg.string(),
      providerName: t.arg.string(),
      credits: t.arg.int({ required: true }),
    },
    resolve: (_root, args, ctx) => createReferrer(ctx, args),
  }),
  adminReferrerDelete: t.boolean({
    description: 'Deletes a campaign by its link or code: its link then grants nothing.',
    args: { referrerCodeOrUrl: t.arg.string({ required: true }) },
    resolve: (_root, { referrerCodeOrUrl }, ctx) => deleteReferrer(ctx, referrerCodeOrUrl),
  }),
  adminProxyStart: t.string({
    description:
      'Checks that the email is a confirmed user and records "proxy on"; send the answer as X-User from then on.',
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, { email }, ctx) => startProxy(ctx, email),
  }),
  adminProxyEnd: t.boolean({
    description: 'Records "proxy off" for the email that was proxied.',
    args: { email: t.arg.string({ required: true }) },
    resolve: (_root, { email }, ctx) => endProxy(ctx, email),
  }),
  adminUserProfessional: t.field({
    type: UserRef,
    description:
      'Grants (true) or removes (false) professional status (group bit 16). A removal also sets the user’s running plans that sell it to cancel at the end of the period paid, or at once when their renewal failed (UNAVAILABLE, nothing removed, when Stripe cannot be reached).',
    args: { email: t.arg.string({ required: true }), isProfessional: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => setProfessional(ctx, args),
  }),
}));

builder.queryFields((t) => ({
  adminReferrerStatsReport: t.string({
    description:
      'CSV: a header row, then per campaign name, code, signups, confirmed signups, paying users, signals sent, credits granted, brokerage, deleted at.',
    resolve: (_root, _args, ctx) => referrerStatsReport(ctx),
  }),
  adminAuditLog: t.field({
    type: [AdminAuditEntryRef],
    description:
      'Newest first. Paging as `actions`: pass the createdAt of the last shown entry as createdAtFrom; limit default 20, at most 100.',
    args: { limit: t.arg.int(), createdAtFrom: t.arg.float() },
    resolve: (_root, args, ctx) => listAudit(ctx, args),
  }),
}));
