// The shared replay of every broker folder's fixtures/requests.json and fixtures/responses.json
// against its protocol fake (core/replay.ts). A new folder with fixtures is picked up here.
import { describe, expect, it, onTestFinished } from 'vitest';
import { brokerFolders, brokerModules, loadProtocolFake } from '../discover.ts';
import { resolveBrokerContext } from './context.ts';
import { isBrokerError } from './errors.ts';
import type { ProtocolFake } from './protocol-fake.ts';
import {
  type GivenCall,
  pinned,
  REPLAY_CALLS,
  type ReplayTarget,
  type RequestCase,
  type ResponseCase,
  readFixtures,
  runCall,
} from './replay.ts';

const folders = brokerFolders().filter(
  (folder) => readFixtures(folder, 'requests.json') || readFixtures(folder, 'responses.json'),
);

async function outcome(promise: Promise<unknown>): Promise<unknown> {
  try {
    return await promise;
  } catch (error) {
    if (!isBrokerError(error)) throw error;
    return { error: { kind: error.kind, message: error.message } };
  }
}

/** The case's given calls, each expected to succeed: a refused setup would make the case prove nothing. */
async function arrange(given: GivenCall[] | undefined, target: ReplayTarget): Promise<void> {
  for (const { call, input } of given ?? []) await runCall(call, input, target);
}

/**
 * A fake, broker and session of the case's own, closed when it ends: the account, order ids and
 * rate-limit windows as the fake starts, so the cases of a folder run in any order.
 */
async function connected(folder: string): Promise<{ fake: ProtocolFake; target: ReplayTarget }> {
  const module = brokerModules.find((item) => item.descriptor.name === folder);
  const start = await loadProtocolFake(folder);
  if (!module || !start) throw new Error(`adapters/${folder}: fixtures need a broker and its protocol fake`);
  const fake = await start();
  const broker = await module.load();
  onTestFinished(async () => {
    await broker.close?.();
    await fake.close();
  });
  const ctx = resolveBrokerContext(broker.descriptor, { config: fake.config, publicUrl: 'http://127.0.0.1:9' });
  // OAuth 1.0a asks the broker for a request token first; connecting needs it back.
  const authorization = await broker.startAuthorization?.(ctx, 'replay');
  const session = await broker.connect(ctx, {
    credentials: fake.credentials(ctx.redirectUrl ?? ''),
    ...(authorization?.pending ? { pending: authorization.pending } : {}),
  });
  // The call as the examples were recorded: nothing kept from connecting (a kept session would
  // skip the login the fixtures show).
  await broker.close?.();
  return { fake, target: { broker, ctx, session, accountId: session.accounts[0]?.id ?? '' } };
}

describe.each(folders)('%s fixtures', (folder) => {
  const requests = readFixtures<RequestCase>(folder, 'requests.json') ?? {};
  const responses = readFixtures<ResponseCase>(folder, 'responses.json') ?? {};

  for (const call of REPLAY_CALLS) {
    for (const { description, given, input, output, skipKeys } of requests[call] ?? []) {
      it(`${call}: ${description} sends exactly the recorded request`, async ({ expect }) => {
        const { fake, target } = await connected(folder);
        await arrange(given, target);
        const before = fake.requests().length;
        await outcome(runCall(call, input, target));
        const expected = (Array.isArray(output) ? output : [output]).map((request) => ({ query: {}, ...request }));
        const [{ method, path } = { method: '', path: '' }] = expected;
        const sent = fake.requests().slice(before);
        const matching = sent.filter((request) => request.method === method && request.path === path);
        expect(matching.map((request) => pinned(request, skipKeys))).toEqual(expected);
      });
    }
    for (const { description, given, input, httpResponse, parsedResponse } of responses[call] ?? []) {
      it(`${call}: ${description} reads the recorded answer`, async ({ expect }) => {
        const { fake, target } = await connected(folder);
        await arrange(given, target);
        const before = fake.requests().length;
        fake.answerNext(httpResponse);
        const result = await outcome(runCall(call, input, target));
        const answered = fake.requests().slice(before);
        expect(answered.some((r) => r.method === httpResponse.method && r.path === httpResponse.path)).toBe(true);
        expect(result).toEqual(parsedResponse);
      });
    }
  }
});

it('replays the fixtures of every folder that has them', () => {
  expect(folders.length).toBeGreaterThan(0);
});
