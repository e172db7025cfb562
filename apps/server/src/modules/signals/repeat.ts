// A repeat of a stored signal (same client_id, or the same body inside the window) gets the
// first signal's answer: from this process when the first is still in flight here, else from
// its row (polled until the deadline when another instance is still placing it). It never
// places anything.
import { findSignalState } from '../../db/repositories/signals.repository.ts';
import type { Services } from '../../services.ts';
import { fromStoredBody, pending, refusal } from './answers.ts';
import { type InFlight, withinDeadline } from './in-flight.ts';
import type { Answer, HookEntry } from './types.ts';

const POLL_MS = 50;

export async function repeatAnswer(
  services: Services,
  inFlight: InFlight<Answer>,
  entry: HookEntry,
  ownerId: string,
  deadlineAt: number,
): Promise<Answer> {
  for (;;) {
    // The first may have been stored a moment ago by this process and be in flight now.
    const local = inFlight.get(ownerId);
    if (local) return (await withinDeadline(local, deadlineAt - performance.now())) ?? pending(ownerId, entry.title);
    const state = await findSignalState(services.db.$client, ownerId);
    if (!state) return pending(ownerId, entry.title);
    const stored = fromStoredBody(state.response);
    if (stored) return stored;
    if (state.status === 'failed' || state.status === 'rejected') {
      return refusal(400, 'ExecutionError', `${entry.title}: the order was not placed`);
    }
    if (state.status !== 'placing' && state.status !== 'unknown') {
      const body: Record<string, unknown> = { id: state.broker_order_id ?? ownerId, status: state.status };
      if (state.price !== null) body.price = state.price;
      return { statusCode: 201, body };
    }
    if (performance.now() + POLL_MS >= deadlineAt) return pending(ownerId, entry.title);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
