// A repeat of a stored signal (same client_id, or the same body inside the window) gets the
// first signal's answer: from this process when the first is still in flight here, else from
// its row (polled until the deadline when another instance is still placing it). It never
// places anything, and is no move of the first signal.
import { findSignalState } from '../../db/repositories/signals.repository.ts';
import type { HookEntry } from '../hooks/index.ts';
import { fromStoredBody, pending, refusal } from './answers.ts';
import { withinDeadline } from './in-flight.ts';
import { storedState } from './lifecycle.ts';
import type { SignalRuntime } from './runtime.ts';
import type { Answer } from './types.ts';

const POLL_MS = 50;

export async function repeatAnswer(
  rt: SignalRuntime,
  entry: HookEntry,
  ownerId: string,
  deadlineAt: number,
): Promise<Answer> {
  for (;;) {
    // The first may have been stored a moment ago by this process and be in flight now.
    const local = rt.inFlight.get(ownerId);
    if (local) return (await withinDeadline(local, deadlineAt - performance.now())) ?? pending(ownerId, entry.title);
    const row = await findSignalState(rt.services.db.$client, ownerId);
    if (!row) return pending(ownerId, entry.title);
    const stored = fromStoredBody(row.response);
    if (stored) return stored;
    const state = storedState(row.status);
    if (state === 'rejected') return refusal(400, 'ExecutionError', `${entry.title}: the order was not placed`);
    if (state !== 'sent' && state !== 'unknown') {
      const body: Record<string, unknown> = { id: row.broker_order_id ?? ownerId, status: row.status };
      if (row.price !== null) body.price = row.price;
      return { statusCode: 201, body };
    }
    if (performance.now() + POLL_MS >= deadlineAt) return pending(ownerId, entry.title);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
