// The notification worker: an outbox poller on PostgreSQL (no job-queue library, see
// docs/ARCHITECTURE.md). Every round locks due deliveries (FOR UPDATE SKIP LOCKED, so instances
// share the work) in a transaction kept open while it sends them, and records the results in it.
// A crashed worker's locks go with its connection, so its deliveries are due again at once. At
// least once: a crash after sending and before the commit sends again, with the same webhook-id.
// Every few minutes it also emits connector.expiring, tells users of disabled settings, and
// deletes old events.

import { setImmediate } from 'node:timers/promises';
import { EXPIRY_WARNING_DAYS, EXPIRY_WARNING_DAYS_BY_PROVIDER, NOTIFICATION_TYPE } from '@router/shared';
import type { Transaction } from '../../db/repositories/executor.ts';
import {
  type ClaimedDelivery,
  claimDueDeliveries,
  type DeliveryResult,
  recordDeliveryResults,
  recordEndpointHealth,
} from '../../db/repositories/notification-deliveries.repository.ts';
import {
  deleteOldEvents,
  emitExpiringConnectors,
  sendDisabledNotices,
} from '../../db/repositories/notification-maintenance.repository.ts';
import { failureStreak } from '../../failure-streak.ts';
import type { Services } from '../../services.ts';
import { lookUpAll } from '../signals/order-lookup.ts';
import type { LookupAll } from './address-guard.ts';
import { DISABLE_AFTER_MS, DISABLED_REASON, STREAK_BREAK_MS } from './delivery-rules.ts';
import { disabledMail, type MailContext } from './mail-content.ts';
import { sendEmails } from './send-email.ts';
import { sendWebhook } from './send-webhook.ts';
import { createWebhookAgents } from './webhook-agents.ts';

export interface WorkerOptions {
  /** Poll interval; default 1 s, or the first retry wait when that is shorter (tests). */
  pollMs?: number;
  /** Deliveries claimed per round (one statement claims them all). */
  batch?: number;
  /** Webhooks in flight at once within a round. */
  concurrency?: number;
  /**
   * Rounds of emails, and of webhooks, at once at most when receivers hold the ones running
   * (default 4); webhooks of failing endpoints have half as many of their own.
   */
  lanes?: number;
  webhookTimeoutMs?: number;
  /** Resolver for webhook hosts (tests). */
  lookup?: LookupAll;
  maintenanceMs?: number;
  /** Delivered events are kept this many days. */
  retentionDays?: number;
  /** Old events deleted per statement; a maintenance pass repeats it until a batch comes back short. */
  retentionBatch?: number;
}

export interface NotificationWorker {
  /** One claim-send-record round per queue (emails, webhooks, failing webhooks); the most one claimed. */
  runOnce(): Promise<number>;
  /** Runs rounds until nothing is due (each queue's on its own). */
  drain(): Promise<void>;
  /** Expiry check, disabled-setting notices, retention. */
  maintain(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * Where a round claims from: emails, webhooks of working endpoints, and webhooks of endpoints
 * failing now (`failing_since` set: they may answer only at the timeout). Each has rounds, and
 * runs of rounds, of its own.
 */
interface Queue {
  channel: number;
  failing?: boolean;
}
const QUEUES: readonly Queue[] = [
  { channel: NOTIFICATION_TYPE.EMAIL },
  { channel: NOTIFICATION_TYPE.HOOK, failing: false },
  { channel: NOTIFICATION_TYPE.HOOK, failing: true },
];

export function createNotificationWorker(services: Services, options: WorkerOptions = {}): NotificationWorker {
  const { config, db, log } = services;
  const schedule = config.NOTIFICATION_RETRY_SCHEDULE;
  const batch = options.batch ?? 200;
  const concurrency = options.concurrency ?? 8;
  const retentionDays = options.retentionDays ?? 30;
  const retentionBatch = options.retentionBatch ?? 1000;
  const mail: MailContext = {
    publicUrl: config.PUBLIC_URL,
    title: (name) => services.brokers.descriptor(name)?.title ?? name,
  };
  const mailer = services.identity.mailer;
  const agents = createWebhookAgents();
  /** Failures in a row (the database down a while) logged as one streak, not one a poll. */
  const roundFailures = failureStreak(log, 'notification delivery round failed');
  const maintenanceFailures = failureStreak(log, 'notification maintenance failed');

  async function notifyDisabled(): Promise<void> {
    await sendDisabledNotices(
      db,
      async (setting) => {
        await mailer.send(disabledMail(mail, setting.email, { ...setting, url: setting.metadata.url }));
      },
      (setting, error) =>
        log.error({ err: error, notificationId: setting.id }, 'disabled-webhook notice not sent (tried again later)'),
    );
  }

  /**
   * Settings whose deliveries a round of this worker holds (count of rounds): the other rounds
   * pass them by, so a receiver holding one round does not hold the next ones too.
   */
  const sending = new Map<number, number>();
  const hold = (ids: readonly number[], by: 1 | -1) => {
    for (const id of ids) {
      const rounds = (sending.get(id) ?? 0) + by;
      if (rounds > 0) sending.set(id, rounds);
      else sending.delete(id);
    }
  };

  /**
   * This worker's claims, one at a time: a round's claim starts once the one before it has
   * registered the settings it holds, so it passes them by. Two claims at once (a lane started
   * while another's claim was still running) each took a share of one setting's deliveries: a
   * flood's digest went out in two mails.
   */
  let claims: Promise<unknown> = Promise.resolve();
  function claimInTurn(tx: Transaction, held: number[], queue: Queue): Promise<ClaimedDelivery[]> {
    const turn = claims.then(async () => {
      const claimed = await claimDueDeliveries(tx, batch, [...sending.keys()], queue.channel, queue.failing);
      held.push(...new Set(claimed.map((d) => d.notificationId)));
      hold(held, 1);
      return claimed;
    });
    claims = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Claims, sends and records one batch of one queue's deliveries in one transaction;
   * undefined when nothing was due.
   */
  async function round(tx: Transaction, held: number[], queue: Queue) {
    const claimed = await claimInTurn(tx, held, queue);
    if (claimed.length === 0) return undefined;
    const hooks = takingTurns(claimed.filter((d) => d.channel === NOTIFICATION_TYPE.HOOK));
    const emails = claimed.filter((d) => d.channel === NOTIFICATION_TYPE.EMAIL);
    const webhookDeps = {
      secretsKey: services.secretsKey,
      allowPrivate: config.ALLOW_PRIVATE_WEBHOOKS,
      schedule,
      timeoutMs: options.webhookTimeoutMs,
      lookup: options.lookup,
      agents,
      secrets: new Map<number, string[]>(),
    };
    const [hookResults, emailResults] = await Promise.all([
      lookUpAll(hooks, concurrency, (d) => sendWebhook(webhookDeps, d)).then((sent) =>
        // sendWebhook never throws: every send is fulfilled.
        sent.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
      ),
      sendEmails({ db: tx, mailer, mail, schedule }, emails),
    ]);
    const recorded = new Set(await recordDeliveryResults(tx, [...hookResults, ...emailResults]));
    return { count: claimed.length, health: endpointChanges(hooks, hookResults, recorded) };
  }

  /**
   * Emails and webhooks in rounds (transactions) of their own: a mail sent is recorded as soon as
   * the round's mails are, not when its slowest webhook answers (up to the timeout). In one
   * round, a crash while a receiver hung sent every mail of that round again.
   */
  async function runOnce(): Promise<number> {
    const counts = await Promise.all(QUEUES.map(runQueue));
    // A full round of any queue means more is due.
    return Math.max(...counts);
  }

  async function runQueue(queue: Queue): Promise<number> {
    const held: number[] = [];
    try {
      const done = await db.transaction((tx) => round(tx, held, queue));
      if (!done) return 0;
      const { count, health } = done;
      const disabled = await recordEndpointHealth(db, health, DISABLE_AFTER_MS, DISABLED_REASON, STREAK_BREAK_MS);
      if (disabled.length > 0) {
        log.warn({ notificationIds: disabled }, 'notification webhooks disabled after failing for 3 days');
        await notifyDisabled();
      }
      return count;
    } finally {
      hold(held, -1);
    }
  }

  /** Set by stop(): the rounds in progress finish, the rest of a backlog (or of a retention pass) waits for the next start. */
  let stopping = false;
  const pollMs = options.pollMs ?? Math.min(1000, schedule[0] ?? 1000);
  const maxLanes = options.lanes ?? 4;
  /**
   * Runs of rounds in progress, per queue, each with when its current round began. Each queue
   * has runs of its own: with one run for emails and webhooks, a round waited for its webhooks
   * (a receiver answering at the timeout, 10 s) before the next claimed any mail, so once every
   * run was held by such receivers (other users' dead endpoints) an order.rejected mail waited
   * behind them; and with one queue for every webhook, those receivers held every run of
   * webhook rounds, so a working receiver's webhook waited up to the timeout too. An endpoint
   * failing now goes to the failing queue (at most half the runs: each holds a connection).
   */
  const lanes = new Map<Queue, Set<{ since: number; done: Promise<void> }>>(QUEUES.map((q) => [q, new Set()]));
  const lanesOf = (queue: Queue) => (queue.failing ? Math.ceil(maxLanes / 2) : maxLanes);
  /**
   * Starts a run of one queue's rounds when none is running, or when every running one has been
   * in its round for longer than a poll (a receiver answering slowly, up to the timeout):
   * deliveries due meanwhile do not wait for it. At most `lanes` at once; otherwise waits for
   * the running ones.
   */
  const drainQueue = (queue: Queue): Promise<void> => {
    const running = lanes.get(queue) ?? new Set();
    const now = performance.now();
    const held = [...running].every((l) => now - l.since >= pollMs);
    if (!held || running.size >= lanesOf(queue))
      return Promise.all([...running].map((l) => l.done)).then(() => undefined);
    const lane = { since: now, done: Promise.resolve() };
    lane.done = (async () => {
      try {
        // A full round means more is due; the pause lets the hook's work go first meanwhile.
        while ((await runQueue(queue)) === batch && !stopping) {
          await setImmediate();
          lane.since = performance.now();
        }
        roundFailures.succeeded();
      } catch (error) {
        roundFailures.failed(error);
      } finally {
        running.delete(lane);
      }
    })();
    running.add(lane);
    return lane.done;
  };
  const drain = () => Promise.all(QUEUES.map(drainQueue)).then(() => undefined);

  let maintaining: Promise<void> | undefined;
  const maintain = () =>
    (maintaining ??= (async () => {
      try {
        await emitExpiringConnectors(db, EXPIRY_WARNING_DAYS_BY_PROVIDER, EXPIRY_WARNING_DAYS);
        await notifyDisabled();
        // Every old event, a batch at a time: a day's events (up to two per live signal and
        // setting) can outnumber what one batch per pass would remove.
        while (!stopping && (await deleteOldEvents(db, retentionDays, retentionBatch)) === retentionBatch) {
          await setImmediate();
        }
        maintenanceFailures.succeeded();
      } catch (error) {
        maintenanceFailures.failed(error);
      } finally {
        maintaining = undefined;
      }
    })());

  const timers: NodeJS.Timeout[] = [];
  return {
    runOnce,
    drain,
    maintain,
    start() {
      timers.push(setInterval(() => void drain(), pollMs));
      timers.push(setInterval(() => void maintain(), options.maintenanceMs ?? 10 * 60_000));
      for (const timer of timers) timer.unref();
      void maintain();
    },
    async stop() {
      stopping = true;
      for (const timer of timers.splice(0)) clearInterval(timer);
      const running = [...lanes.values()].flatMap((set) => [...set]);
      await Promise.all([...running.map((l) => l.done), maintaining]);
      agents.close();
    },
  };
}

/**
 * The round's webhooks in turns by setting: each setting's first (oldest due first), then each
 * one's second, and so on. In claim order, one setting's many deliveries (a flood to a receiver
 * that answers slowly or only at the timeout) filled every slot ahead of other settings'.
 */
function takingTurns(hooks: readonly ClaimedDelivery[]): ClaimedDelivery[] {
  const turns = new Map<number, number>();
  const turned = hooks.map((delivery) => {
    const turn = turns.get(delivery.notificationId) ?? 0;
    turns.set(delivery.notificationId, turn + 1);
    return { delivery, turn };
  });
  return turned.sort((a, b) => a.turn - b.turn).map((t) => t.delivery);
}

/**
 * Webhook outcomes that change a setting's health: every failure of its endpoint (it may start a
 * streak or disable the setting), and a success of a setting that was failing. A success of a
 * healthy setting changes nothing, so the usual round writes nothing here; nor does a failure of
 * this server's own setup (`ownSetup`), which never reached the receiver.
 */
function endpointChanges(
  hooks: readonly ClaimedDelivery[],
  results: readonly DeliveryResult[],
  recorded: ReadonlySet<number>,
): { notificationId: number; ok: boolean }[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  return hooks.flatMap((d) => {
    const result = byId.get(d.id);
    if (!result || !recorded.has(d.id) || result.ownSetup || (result.ok && d.failingSince === null)) return [];
    return [{ notificationId: d.notificationId, ok: result.ok }];
  });
}
