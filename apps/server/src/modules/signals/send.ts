// accepted → sent → placed | rejected | unknown: the broker gets the order with the signal id as
// client order id; its outcome is answered within the deadline or, later, recorded in the
// background (by group commit, after the answer). Never sent twice: only this call sends it, and
// reconciliation only ever looks it up.
import { createWireLog, isBrokerError, isSecretName, type WireLog } from '@router/brokers';
import type { Order } from '@router/orders';
import { recordSignalAnswer, releaseSignalKey } from '../../db/repositories/signals.repository.ts';
import { isAppError } from '../../errors.ts';
import { reportBrokerFailure } from '../connectors/broker-failure.ts';
import { withBrokerSession } from '../connectors/index.ts';
import type { HookEntry } from '../hooks/index.ts';
import type { TakenCount } from '../hooks/rules/index.ts';
import { pending } from './answers.ts';
import { type SignalState, storedFrom, transition } from './lifecycle.ts';
import { fromError, fromResult, lost, notSent, type Outcome } from './outcome.ts';
import type { SignalRuntime } from './runtime.ts';
import type { Answer } from './types.ts';

/** A signal on its way, in this process: its state moves only by transition(). */
export interface Signal {
  readonly id: string;
  state: SignalState;
  readonly entry: HookEntry;
  /** Idempotency key: `c:<client_id>` or `h:<sha-256 of the body>`. */
  readonly key: string;
  /** The body as received (JSON text, byte-order mark removed). */
  readonly request: string;
  readonly order: Order;
  readonly address: string | null;
  /** When the request arrived (performance.now()). */
  readonly receivedAt: number;
  /** What was sent to the broker, redacted (set when the broker is called). */
  wire?: WireLog;
  /** Its maxOrdersPer* count (stored with it: the day's goes back with a rejection's write). */
  readonly count?: TakenCount | undefined;
}

/**
 * Calls the broker for an accepted live signal and answers by the deadline (`deadlineAt`, in
 * performance.now() ms). Never throws: once the signal is stored, the worst answer is 'accepted'.
 */
export function send(rt: SignalRuntime, s: Signal, deadlineAt: number): Promise<Answer> {
  const { entry } = s;
  const log = rt.services.log;
  const controller = new AbortController();
  let settled = false;

  const refused = (error: unknown): Outcome => {
    // A token refresh the broker refused: withBrokerSession deactivated the connector.
    if (isBrokerError(error)) {
      return { ...notSent(error), connectorRejected: error.kind === 'AuthenticationError' };
    }
    if (!isAppError(error)) log.error({ err: error, signalId: s.id }, 'broker session failed');
    return notSent(
      isAppError(error) && error.code !== 'INTERNAL' ? error.message : `${entry.title}: the order could not be sent`,
    );
  };

  // withBrokerSession opens the secrets (cached), refreshes tokens when due and deactivates the
  // connector when the broker rejects its credentials.
  const call: Promise<Outcome> = withBrokerSession(
    rt.services,
    entry.connector,
    async ({ broker, ctx, session }) => {
      // The call limit passed while the session opened: the signal was settled as not sent.
      if (controller.signal.aborted) throw controller.signal.reason;
      s.state = transition(s.state, 'send');
      const input = { accountId: entry.accountId, order: s.order, clientOrderId: s.id };
      const secrets = [...Object.values(session.secrets), ctx.clientSecret ?? '', ctx.clientId ?? ''];
      const wire = createWireLog(secrets, () => [
        ...Object.entries(session.secrets)
          .filter(([name]) => isSecretName(name))
          .map(([, value]) => value),
        ctx.clientSecret ?? '',
      ]);
      s.wire = wire;
      // Chained, not awaited: a call waiting in a burst's backlog keeps no suspended frame of this function.
      return wire
        .run(() => broker.placeOrder(ctx, session, input))
        .then((result) => fromResult(s.id, entry.title, result));
    },
    { signal: controller.signal },
  ).catch((thrown: unknown) => {
    const error = s.wire ? s.wire.redactError(thrown) : thrown;
    if (s.state === 'accepted') return refused(error);
    if (!controller.signal.aborted) {
      reportBrokerFailure(rt.services, error, entry.providerName, { signalId: s.id }, 'broker call failed');
    }
    return fromError(s.id, entry.title, error);
  });

  // The broker may take longer than the sender waits, but not forever.
  let limitTimer: NodeJS.Timeout | undefined;
  const limit = new Promise<Outcome>((resolve) => {
    limitTimer = setTimeout(() => {
      controller.abort(new Error('broker call limit reached'));
      resolve(
        s.state === 'accepted' ? notSent(`${entry.title}: the order could not be sent`) : lost(s.id, entry.title),
      );
    }, rt.callLimitMs);
    limitTimer.unref();
  });
  const outcome = Promise.race([call, limit]).then(async (o) => {
    settled = true;
    clearTimeout(limitTimer);
    // The connector is deactivated: its cached hooks go, so the next signal finds it so at once.
    if (o.connectorRejected) rt.hooks.forgetConnector(entry.connectorId);
    // Refused for a passing reason, nothing placed: the key is free before the sender is answered,
    // so its retry (after a 429 or 503 of the REST API) is placed, not answered this refusal.
    if (o.freeKey) {
      await releaseSignalKey(rt.services.db.$client, entry.hookId, s.key, s.id).catch((error: unknown) =>
        log.error({ err: error, signalId: s.id }, 'idempotency key not freed'),
      );
    }
    return o;
  });

  let answerTimer: NodeJS.Timeout | undefined;
  const answer = new Promise<Answer>((resolve) => {
    const wait = Math.max(0, deadlineAt - performance.now());
    answerTimer = setTimeout(() => {
      if (settled) return;
      // Nothing sent yet (session opening, or reads only so far): the answer says so.
      const early = pending(s.id, entry.title, s.state === 'accepted' || s.wire?.sentOnlyReads() === true);
      resolve(early);
      const elapsedMs = Math.round(performance.now() - s.receivedAt);
      // Held: a shutdown waits for it (the pool ends after), as for the outcome's write.
      void rt.inFlight.hold(
        recordSignalAnswer(rt.services.db.$client, s.id, JSON.stringify(early.body), elapsedMs).catch(
          (error: unknown) => log.error({ err: error, signalId: s.id }, 'signal answer not recorded'),
        ),
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
    await settle(rt, s, o, answered === o.answer ? answered : null);
  });
  rt.inFlight.track(s.id, answer, written);
  return answer;
}

/** sent → placed | rejected | unknown, or accepted → rejected: the move, then its write (batched). */
async function settle(rt: SignalRuntime, s: Signal, o: Outcome, answered: Answer | null): Promise<void> {
  try {
    const from = s.state;
    s.state = transition(from, o.event);
    await rt.outcomes.submit({
      id: s.id,
      from: storedFrom(from),
      status: o.status,
      brokerOrderId: o.brokerOrderId,
      price: o.price,
      response: answered ? JSON.stringify(answered.body) : null,
      elapsedMs: answered ? Math.round(performance.now() - s.receivedAt) : null,
      releaseCredit: o.releaseCredit,
      message: o.event === 'reject' ? String(o.answer.body.message ?? '') : (o.message ?? null),
    });
  } catch (error) {
    // The row stays 'placing': reconciliation asks the broker later.
    rt.services.log.error({ err: error, signalId: s.id }, 'signal outcome not recorded');
  }
}
