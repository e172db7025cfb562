// The state machine: the moves of the table and no other; terminal states stay terminal, and no
// sequence of events sends a signal twice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvalidTransition,
  type SignalEvent,
  type SignalState,
  STORED,
  storedFrom,
  storedState,
  transition,
} from './lifecycle.ts';

const STATES: SignalState[] = [
  'received',
  'refused',
  'accepted',
  'sent',
  'placed',
  'rejected',
  'unknown',
  'reconciled',
];
const EVENTS: SignalEvent[] = ['refuse', 'accept', 'send', 'place', 'reject', 'lose', 'reconcile'];
const TERMINAL: SignalState[] = ['refused', 'placed', 'rejected', 'reconciled'];

const ALLOWED: Record<string, SignalState> = {
  'received:refuse': 'refused',
  'received:accept': 'accepted',
  'accepted:send': 'sent',
  'accepted:reject': 'rejected',
  'sent:place': 'placed',
  'sent:reject': 'rejected',
  'sent:lose': 'unknown',
  'sent:reconcile': 'reconciled',
  'unknown:reconcile': 'reconciled',
};

function tryMove(from: SignalState, event: SignalEvent): SignalState | InvalidTransition {
  try {
    return transition(from, event);
  } catch (error) {
    if (error instanceof InvalidTransition) return error;
    throw error;
  }
}

describe('transition', () => {
  it('makes exactly the moves of the table and refuses every other with InvalidTransition', () => {
    for (const from of STATES) {
      for (const event of EVENTS) {
        const result = tryMove(from, event);
        const want = ALLOWED[`${from}:${event}`];
        if (want) expect(result).toBe(want);
        else {
          expect(result).toBeInstanceOf(InvalidTransition);
          expect((result as InvalidTransition).message).toBe(`a ${from} signal cannot ${event}`);
        }
      }
    }
  });

  it('keeps terminal states terminal and sends a signal at most once, whatever the events', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...EVENTS), { maxLength: 30 }), (events) => {
        let state: SignalState = 'received';
        let sends = 0;
        for (const event of events) {
          const next = tryMove(state, event);
          if (next instanceof InvalidTransition) continue;
          expect(TERMINAL).not.toContain(state);
          if (event === 'send') sends++;
          state = next;
        }
        expect(sends).toBeLessThanOrEqual(1);
        expect(STATES).toContain(state);
      }),
    );
  });
});

describe('stored status', () => {
  it('reads back the state a write starts from, and the outcomes as they are counted', () => {
    expect(storedState(storedFrom('accepted'))).toBe('sent');
    expect(storedState(storedFrom('sent'))).toBe('sent');
    expect(storedState(storedFrom('unknown'))).toBe('unknown');
    expect(storedState(STORED.draft)).toBe('accepted');
    expect(storedState(STORED.rejected)).toBe('rejected');
    expect(storedState(STORED.failed)).toBe('rejected');
    for (const brokerStatus of ['accepted', 'filled', 'canceled']) expect(storedState(brokerStatus)).toBe('placed');
  });
});
