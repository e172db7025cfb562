// A signal's life as one state machine (like nautilus_trader's order state table): every move a
// signal may make is one row of MOVES, and transition() refuses any other with an error. The
// functions that make the moves are named after the events (submit.ts: refuse, accept;
// send.ts: send, place, reject, lose; reconcile.ts: reconcile, lose).

export type SignalState =
  | 'received'
  | 'refused'
  | 'accepted'
  | 'sent'
  | 'placed'
  | 'rejected'
  | 'unknown'
  | 'reconciled';

export type SignalEvent = 'refuse' | 'accept' | 'send' | 'place' | 'reject' | 'lose' | 'reconcile';

const MOVES: ReadonlyArray<readonly [from: SignalState, event: SignalEvent, to: SignalState]> = [
  ['received', 'refuse', 'refused'], // bad body, no credit left, hook or connector off: nothing stored
  ['received', 'accept', 'accepted'], // stored: key claimed, credit held (a test hook's stops here)
  ['accepted', 'send', 'sent'], // the broker call starts, with the signal id as client order id
  ['accepted', 'reject', 'rejected'], // refused before the order left (connection off, secrets unreadable)
  ['sent', 'place', 'placed'], // the broker took it: its status, credit kept
  ['sent', 'reject', 'rejected'], // the broker refused for sure: credit released
  ['sent', 'lose', 'unknown'], // no answer (deadline, dropped connection, call limit) or the broker cannot tell
  ['sent', 'reconcile', 'reconciled'], // left 'placing' by a crash: looked up, never sent again
  ['unknown', 'reconcile', 'reconciled'], // looked up: found (its status) or not there (credit released)
];
// An 'unknown' signal its broker cannot tell about makes no move: it stays 'unknown', credit held,
// its answer telling the user to check the broker account, and reconciliation stops asking.

const TABLE = new Map(MOVES.map(([from, event, to]) => [`${from}:${event}`, to]));

export class InvalidTransition extends Error {
  override readonly name = 'InvalidTransition';
  readonly from: SignalState;
  readonly event: SignalEvent;
  constructor(from: SignalState, event: SignalEvent) {
    super(`a ${from} signal cannot ${event}`);
    this.from = from;
    this.event = event;
  }
}

/** The state `event` moves a `from` signal to; throws InvalidTransition for a move not in MOVES. */
export function transition(from: SignalState, event: SignalEvent): SignalState {
  const to = TABLE.get(`${from}:${event}`);
  if (!to) throw new InvalidTransition(from, event);
  return to;
}

/**
 * How the states are stored in signals.status, which stats (errors: 'rejected', 'failed'),
 * repeats and reconciliation read. 'received' and 'refused' have no row (a refusal is only its
 * Order activity entry). 'accepted' and 'sent' share 'placing': writing 'sent' before the broker
 * call would cost a round trip on the hot path, so after a crash 'placing' counts as maybe sent.
 * A test hook's accepted signal is 'draft' and goes no further. 'placed' and a found
 * 'reconciled' store the broker's order status ('accepted', 'filled', …); 'rejected' stores
 * 'rejected' when the broker said no and 'failed' when the order never reached it, as does a
 * 'reconciled' signal the broker does not have.
 */
export const STORED = {
  placing: 'placing',
  draft: 'draft',
  unknown: 'unknown',
  rejected: 'rejected',
  failed: 'failed',
} as const;

/** The stored status a move from `state` (accepted, sent or unknown) starts from: its write's fence. */
export function storedFrom(state: SignalState): string {
  return state === 'unknown' ? STORED.unknown : STORED.placing;
}

/** The state of a stored row, as far as its status tells ('reconciled' reads as placed or rejected). */
export function storedState(status: string): SignalState {
  switch (status) {
    case STORED.placing:
      return 'sent';
    case STORED.unknown:
      return 'unknown';
    case STORED.draft:
      return 'accepted';
    case STORED.rejected:
    case STORED.failed:
      return 'rejected';
    default:
      return 'placed';
  }
}
