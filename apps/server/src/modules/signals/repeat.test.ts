// A repeat gets the first signal's answer, even when the repeat itself is handled past its own
// deadline (its store waited behind the first's insert in a burst): the first answer is known.
import { expect, it } from 'vitest';
import type { HookEntry } from '../hooks/index.ts';
import { pending } from './answers.ts';
import { InFlight } from './in-flight.ts';
import { repeatAnswer } from './repeat.ts';
import type { SignalRuntime } from './runtime.ts';
import type { Answer } from './types.ts';

const entry = { title: 'Flaky' } as HookEntry;

it.each([
  { name: 'being sent (only reads out)', first: pending('sig-1', entry.title, true) },
  { name: 'filled', first: { statusCode: 201, body: { id: 'FB-1', status: 'filled' } } },
])('answers a repeat past its deadline as the first was answered: $name', async ({ first }) => {
  const inFlight = new InFlight<Answer>();
  // The first was answered at its deadline; its outcome is not written yet, so it is still tracked.
  inFlight.track('sig-1', Promise.resolve(first), new Promise(() => {}));
  const rt = { inFlight } as unknown as SignalRuntime;
  const answer = await repeatAnswer(rt, entry, 'sig-1', performance.now() - 1);
  expect(answer).toEqual(first);
});
