// Exactly once: one statement stores the signal (claiming its idempotency key and taking the
// credit), then the broker gets the order with our signal id as client order id. Its outcome is
// answered within the deadline or, later, recorded in the background. A repeat of a stored
// signal gets the first signal's answer (repeat.ts) and places nothing.

import type { Order } from '@router/orders';
import type { GroupCommit } from '../../db/group-commit.ts';
import { recordSignalAnswer, type SignalOutcome } from '../../db/repositories/signals.repository.ts';
import { isAppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { reportBrokerFailure } from '../connectors/broker-failure.ts';
import { withBrokerSession } from '../connectors/index.ts';
import type { ActivityWriter } from './activity-writer.ts';
import { pending, refusal } from './answers.ts';
import type { InFlight } from './in-flight.ts';
import { fromError, fromResult, type Outcome } from './outcome.ts';
import type { SignalStore, StoreResult } from './signal-store.ts';
import type { Answer, HookEntry } from './types.ts';

export interface SignalDeps {
  services: Services;
  inFlight: InFlight<Answer>;
  writer: ActivityWriter;
  signals: SignalStore;
  /** Brokers' outcomes, written in batches after the answers. */
  outcomes: GroupCommit<SignalOutcome, void>;
  /** How long a broker call may run in the background before it is aborted and left 'unknown'. */
  callLimitMs: number;
}

export interface NewSignalInput {
  id: string;
  entry: HookEntry;
  /** Idempotency key: `c:<client_id>` or `h:<sha-256 of the body>`. */
  key: string;
  /** The body as received (JSON text, byte-order mark removed). */
  request: string;
  order: Order;
  address: string | null;
  /** When the request arrived (performance.now()). */
  startedAt: number;
}

export function draftAnswer(id: string, title: string, order: Order): Answer {
  return {
    statusCode: 201,
    body: { id, status: 'draft', status_description: `Test webhook: nothing was sent to ${title}`, order },
  };
}

/** The store round trip (batched). Throws the database's error (unstorable body, outage). */
export function storeNewSignal(deps: SignalDeps, s: NewSignalInput): Promise<StoreResult> {
  const { entry } = s;
  return deps.signals.store({
    id: s.id,
    hookId: entry.hookId,
    key: s.key,
    userId: entry.userId,
    isTest: entry.isTest,
    connectorId: entry.connectorId,
    accountId: entry.accountId,
    providerName: entry.providerName,
    request: s.request,
    order: JSON.stringify(s.order),
    response: entry.isTest ? JSON.stringify(draftAnswer(s.id, entry.title, s.order).body) : null,
    address: s.address,
  });
}

/**
 * Calls the broker for a stored live signal and answers by the deadline (`deadlineAt`, in
 * performance.now() ms). Never throws: once the signal is stored, the worst answer is 'accepted'.
 */
export function sendToBroker(deps: SignalDeps, s: NewSignalInput, deadlineAt: number): Promise<Answer> {
  const { entry } = s;
  const db = deps.services.db.$client;
  const log = deps.services.log;
  const controller = new AbortController();
  let settled = false;

  const notSent = (error: unknown): Outcome => {
    if (!isAppError(error)) log.error({ err: error, signalId: s.id }, 'broker session failed');
    const message =
      isAppError(error) && error.code !== 'INTERNAL' ? error.message : `${entry.title}: the order could not be sent`;
    return {
      answer: refusal(400, 'ExecutionError', message),
      status: 'failed',
      brokerOrderId: null,
      price: null,
      releaseCredit: true,
    };
  };

  const record = (outcome: Outcome, answered: Answer | null) =>
    deps.outcomes
      .submit({
        id: s.id,
        status: outcome.status,
        brokerOrderId: outcome.brokerOrderId,
        price: outcome.price,
        response: answered ? JSON.stringify(answered.body) : null,
        elapsedMs: answered ? Math.round(performance.now() - s.startedAt) : null,
        releaseCredit: outcome.releaseCredit,
      })
      .catch((error: unknown) => {
        // The row stays 'placing' or 'unknown': reconciliation asks the broker later.
        log.error({ err: error, signalId: s.id }, 'signal outcome not recorded');
      });

  // withBrokerSession opens the secrets (cached), refreshes tokens when due and deactivates the
  // connector when the broker rejects its credentials.
  let sent = false;
  const call: Promise<Outcome> = withBrokerSession(
    deps.services,
    entry.connector,
    async ({ broker, ctx, session }) => {
      sent = true;
      const input = { accountId: entry.accountId, order: s.order, clientOrderId: s.id };
      return fromResult(s.id, entry.title, await broker.placeOrder(ctx, session, input));
    },
    { signal: controller.signal },
  ).catch((error: unknown) => {
    // Refused before the order left (connector inactive, secrets unreadable): nothing was sent.
    if (!sent) return notSent(error);
    if (!controller.signal.aborted)
      reportBrokerFailure(deps.services, error, entry.providerName, { signalId: s.id }, 'broker call failed');
    return fromError(s.id, entry.title, error);
  });

  // The broker may take longer than the sender waits, but not forever.
  let limitTimer: NodeJS.Timeout | undefined;
  const limit = new Promise<Outcome>((resolve) => {
    limitTimer = setTimeout(() => {
      controller.abort(new Error('broker call limit reached'));
      resolve(fromError(s.id, entry.title, new Error('broker call limit reached')));
    }, deps.callLimitMs);
    limitTimer.unref();
  });
  const outcome = Promise.race([call, limit]).then((o) => {
    settled = true;
    clearTimeout(limitTimer);
    // Refuse the next signal at once; hook_changed soon replaces the cached entry anyway.
    if (o.connectorRejected) entry.connectorActive = false;
    return o;
  });

  let answerTimer: NodeJS.Timeout | undefined;
  const answer = new Promise<Answer>((resolve) => {
    const wait = Math.max(0, deadlineAt - performance.now());
    answerTimer = setTimeout(() => {
      if (settled) return;
      const early = pending(s.id, entry.title);
      resolve(early);
      void recordSignalAnswer(db, s.id, JSON.stringify(early.body), Math.round(performance.now() - s.startedAt)).catch(
        (error: unknown) => log.error({ err: error, signalId: s.id }, 'signal answer not recorded'),
      );
    }, wait);
    void outcome.then((o) => {
      clearTimeout(answerTimer);
      resolve(o.answer);
    });
  });

  // The outcome is written after the answer is sent (a repeat meanwhile finds it in InFlight).
  const written = outcome.then(async (o) => {
    const answered = await answer;
    await record(o, answered === o.answer ? answered : null);
  });
  deps.inFlight.track(s.id, answer, written);
  return answer;
}
