// Claimed email deliveries: grouped by user, address and event type (a digest group: the settings
// of a user mailing one address share its flood), each group sent as a mail per event, as one
// digest, or put back to wait for its digest (delivery-rules.ts).
import type { Transaction } from '../../db/repositories/executor.ts';
import {
  type ClaimedDelivery,
  claimWaitingDeliveries,
  collectDigest,
  type DeliveryResult,
  type DigestGroup,
  digestStates,
  lockDigestGroups,
} from '../../db/repositories/notification-deliveries.repository.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import {
  DIGEST_MAX_EVENTS,
  DIGEST_THRESHOLD,
  DIGEST_WINDOW_MS,
  digestDecision,
  nextRetry,
  singlesFirst,
} from './delivery-rules.ts';
import { digestMail, eventMail, type MailContext } from './mail-content.ts';

export interface EmailDeps {
  /** The worker's round, holding the claims. */
  db: Transaction;
  mailer: Mailer;
  mail: MailContext;
  schedule: readonly number[];
}

const toMailEvent = (d: ClaimedDelivery) => ({ type: d.eventType, at: d.eventAt, data: d.data });

/** Without SMTP_URL a mail is only logged: its delivery says so, and is not tried again. */
export const NO_MAIL_SERVER = 'Mail not sent: this server has no mail server (SMTP_URL); it was written to the log';

/**
 * Writes and sends one mail. Writing it is part of the attempt: a mail that cannot be written
 * (odd data in a stored event) fails its own deliveries, retried and then given up like any
 * failed send, instead of the worker's round and so every other user's deliveries with it.
 */
async function attempt(deps: EmailDeps, deliveries: readonly ClaimedDelivery[], write: () => Mail, inDigest: boolean) {
  let error: string | null = null;
  try {
    await deps.mailer.send(write());
    if (deps.mailer.logOnly) error = NO_MAIL_SERVER;
  } catch (failure) {
    error = `Mail not sent: ${(failure as Error).message ?? 'error'}`.slice(0, 300);
  }
  const retry = error !== null && !deps.mailer.logOnly;
  return deliveries.map(
    (d): DeliveryResult => ({
      id: d.id,
      ok: error === null,
      responseCode: null,
      error,
      retryInMs: retry ? nextRetry(deps.schedule, d) : null,
      inDigest,
    }),
  );
}

/** The digest group of an email delivery: its user, address (case-insensitively) and event type. */
const groupOf = (d: ClaimedDelivery): DigestGroup => ({
  userId: d.userId,
  email: (d.metadata.email ?? '').toLowerCase(),
  type: d.eventType,
});

/** The deliveries by digest group, each group oldest first. */
function groupByDigest(deliveries: readonly ClaimedDelivery[]) {
  const groups = new Map<string, ClaimedDelivery[]>();
  for (const d of deliveries) {
    const key = JSON.stringify(groupOf(d));
    const group = groups.get(key) ?? [];
    group.push(d);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) =>
    group.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id),
  );
}

/** Never tried, and due later than written: it waited for a digest of its kind. */
const collected = (d: ClaimedDelivery) => d.attempts === 0 && d.dueAt.getTime() > d.createdAt.getTime();

export async function sendEmails(deps: EmailDeps, deliveries: readonly ClaimedDelivery[]): Promise<DeliveryResult[]> {
  if (deliveries.length === 0) return [];
  const groups = groupByDigest(deliveries).flatMap((g) => (g[0] ? [{ ...groupOf(g[0]), deliveries: g }] : []));
  // The groups' digests are this round's until it ends: another round holding part of a flood
  // (another instance's) waits, then sees this one's digest, rather than mailing its own part.
  await lockDigestGroups(deps.db, groups);
  const states = await digestStates(
    deps.db,
    groups.map(({ deliveries: [first], ...group }) => ({ ...group, before: first?.id })),
    DIGEST_WINDOW_MS,
    DIGEST_THRESHOLD + 1,
  );
  const results = await Promise.all(
    groups.map(async ({ deliveries: group, ...key }) => {
      const first = group[0];
      const state = states.find((s) => s.userId === key.userId && s.email === key.email && s.type === key.type);
      const to = first?.metadata.email;
      if (!first || !state || !to) return [];
      // A flood collecting for its digest stays one, however few of it this round holds, and so
      // do the mails that waited for it (the rest of a burst whose first ones went one by one).
      const waited = group.some(collected);
      const decision = digestDecision(state, Math.max(group.length, state.waiting), waited);
      // A burst's first mails (up to the threshold within the window) go one by one, as they
      // would have had the events come a round apart; the rest wait for the digest.
      const singles = decision.kind === 'single' ? group : group.slice(0, singlesFirst(state.earlier, waited));
      const held = group.slice(singles.length);
      const each = Promise.all(
        singles.map((d) => attempt(deps, [d], () => eventMail(deps.mail, to, toMailEvent(d)), false)),
      );
      if (decision.kind === 'wait' && held.length > 0) {
        await collectDigest(deps.db, key, held, decision.until);
      }
      if (decision.kind === 'digest' && held.length > 0) {
        // The whole flood in one mail, not only this round's share of it.
        const claimed = group.map((d) => d.id);
        const rest = await claimWaitingDeliveries(deps.db, { ...key, claimed }, DIGEST_MAX_EVENTS);
        const all = [...held, ...rest];
        // A digest of one event is that event's own mail (more readable than a list of one).
        const write = () =>
          all.length === 1 && all[0]
            ? eventMail(deps.mail, to, toMailEvent(all[0]))
            : digestMail(deps.mail, to, first.eventType, all.map(toMailEvent));
        const digest = await attempt(deps, all, write, true);
        return [...(await each).flat(), ...digest];
      }
      return (await each).flat();
    }),
  );
  return results.flat();
}
