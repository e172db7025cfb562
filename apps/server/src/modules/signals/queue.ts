// outsideWindow: "queue". A signal outside every trading window of such a hook is checked as far
// as it can be without placing it (its age, the symbol map, the order language, symbols and
// limits that need no broker), stored in queued_signals with the opening of the next window, and
// answered 202 "queued". At that opening the sweeper (queue-sweeper.ts) sends it through the
// signal path again with its idempotency key: every rule applied then (kill switch included), one
// credit if placed, and a second placement of it is only ever a repeat. The queued id is not the
// signal's: the signal placed gets one derived from it (queuedSignalId; its answer, kept on the
// queued row, carries it), so a claim taken over after a crash finds it. A repeat of a signal
// already stored (its key held) is answered as that repeat, never queued.
import { normalizeOrder } from '@router/orders';
import { insertQueuedSignal } from '../../db/repositories/queued-signals.repository.ts';
import { checkOrder, isRefusal, lotsAt, prepareBody } from '../hooks/rules/index.ts';
import { nextOpening } from '../hooks/rules/next-opening.ts';
import { refusal, ruleRefused, UNAVAILABLE } from './answers.ts';
import { unlessWayOut } from './rules-gate.ts';
import type { SignalRuntime } from './runtime.ts';
import { newSignalId } from './signal-id.ts';
import { answered, heldRepeat, refuse, type SignalInput, type Submitted, signalKey } from './submit.ts';

export async function queueSignal(rt: SignalRuntime, input: SignalInput, request: string): Promise<Submitted> {
  const { entry } = input;
  const { rules, broker } = entry;
  if (!rules || !broker) return refuse(rt, input, ruleRefused('tradingWindows', 'no trading window to queue for'));
  const body = rules.readsBody ? prepareBody(rules, request, Date.now()) : request;
  if (isRefusal(body)) return refuse(rt, input, ruleRefused(body.rule, body.message), request);
  const normalized = normalizeOrder(body, { provider: broker.descriptor });
  if (!normalized.ok) return refuse(rt, input, refusal(400, 'ValidationError', normalized.error.message), request);
  const { order } = normalized;
  const limit = checkOrder(rules, order, lotsAt(broker?.descriptor));
  // A sell (or buy back) over maxQuantity or maxNotional that is the way out of the position held
  // now is queued (rules-gate.ts), and judged again at the opening against the position then.
  const refused = limit && (await unlessWayOut(rt, entry, rules, order, limit));
  if (refused) return refuse(rt, input, ruleRefused(refused.rule, refused.message), request);
  const key = signalKey(input, order.client_id, request);
  // A repeat of a signal placed while the window was open (a retry once it has closed) is that
  // signal's repeat: queued, it would be placed again at the next opening.
  const repeat = await heldRepeat(rt, input, key, order, request);
  if (repeat) return repeat;
  const opens = nextOpening(rules, new Date());
  if (!opens) return refuse(rt, input, ruleRefused('tradingWindows', 'no trading window opens'), request);
  let queued: { id: string; releaseAt: Date };
  try {
    queued = await insertQueuedSignal(rt.services.db.$client, {
      id: newSignalId(),
      userId: entry.userId,
      hookId: entry.hookId,
      key,
      request,
      order: JSON.stringify(order),
      address: input.address,
      releaseAt: opens,
    });
  } catch (error) {
    rt.services.log.error({ err: error }, 'signal not queued');
    return { answer: UNAVAILABLE, waitedUs: 0 };
  }
  rt.wakeQueue(queued.releaseAt);
  return answered(rt, input, queuedAnswer(queued.id, queued.releaseAt, order), 0, undefined, request);
}

export function queuedAnswer(id: string, placeAt: Date, order: unknown) {
  const at = placeAt.toISOString();
  return {
    statusCode: 202,
    body: {
      id,
      status: 'queued',
      status_description: `Outside this webhook's trading windows: queued, to be placed when its window opens at ${at}`,
      place_at: at,
      order,
    },
  };
}
