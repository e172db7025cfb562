// Adding an MT account to MetaApi (WIRE §3): POST /users/current/accounts with the login, the
// password and the server, under a `transaction-id`. MetaApi checks the credentials with the
// broker while it answers 202 ("broker settings detection is in progress, retry in N seconds");
// the same request with the same transaction-id is repeated until it answers 201 {id, state}.
// The transaction-id is derived from the site's token and the credentials, so connecting again
// with the same credentials (a retry after the wait ran out, a reconnect) continues or repeats
// that transaction instead of adding the account twice; another password is another transaction.
import { createHmac } from 'node:crypto';
import type { BrokerContext } from '../../core/broker.ts';
import type { HttpClient } from '../../core/http.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import {
  accountPath,
  detailCode,
  errorOf,
  fail,
  type Platform,
  pause,
  provisioningClient,
  retryAfterMs,
} from './client.ts';

/** The expert advisor number orders placed through this site carry (a signal's extra.magic overrides it). */
export const ROUTER_MAGIC = 1000;
const DETECTION_WAIT_MS = 5_000;

export interface MtCredentials {
  login: string;
  password: string;
  server: string;
}

export interface Deadline {
  at: number;
  now(): number;
}

export function transactionId(token: string, body: Record<string, unknown>): string {
  const fields = ['platform', 'server', 'login', 'password', 'resourceSlots'].map((key) => String(body[key] ?? ''));
  return createHmac('sha256', token).update(fields.join('\n')).digest('hex').slice(0, 32);
}

function stillChecking(server: string, waitMs: number) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return fail(
    'BrokerUnavailable',
    `MetaApi is still checking the account with ${server}; connect again in about ${seconds} s`,
  );
}

type Created = { id: string } | { code: 'E_SRV_NOT_FOUND' | 'E_RESOURCE_SLOTS'; slots?: number; error: Error };

/** One create request, repeated while MetaApi answers 202: the account's id, or a refusal to act on. */
async function create(
  ctx: BrokerContext,
  http: HttpClient,
  token: string,
  body: Record<string, unknown>,
  deadline: Deadline,
): Promise<Created> {
  const headers = { 'transaction-id': transactionId(token, body) };
  for (;;) {
    const answer = await http.request({
      method: 'POST',
      path: '/users/current/accounts',
      json: body,
      headers,
      accept: [400],
    });
    if (answer.status === 400) {
      const code = detailCode(answer.body);
      const slots = Number(stringField(asRecord(answer.body)?.details, 'recommendedResourceSlots'));
      if (code === 'E_SRV_NOT_FOUND') return { code, error: errorOf(answer) };
      if (code === 'E_RESOURCE_SLOTS' && slots > 0) return { code, slots, error: errorOf(answer) };
      throw errorOf(answer);
    }
    if (answer.status !== 202) {
      const id = stringField(answer.body, 'id');
      if (!id) throw fail('BrokerUnavailable', 'unexpected answer to adding the account');
      return { id };
    }
    const wait = retryAfterMs(answer, deadline.now(), DETECTION_WAIT_MS);
    if (deadline.now() + wait > deadline.at) throw stillChecking(String(body.server), wait);
    await pause(wait, ctx.signal);
  }
}

/**
 * Adds the account under the first platform MetaApi knows the server for. `platforms` lists the
 * candidates (both when the server search does not list the name): a server not found under one
 * is tried under the next, and an account needing more resource slots is asked again with them.
 */
export async function addAccount(
  ctx: BrokerContext,
  http: HttpClient,
  token: string,
  credentials: MtCredentials,
  platforms: readonly Platform[],
  deadline: Deadline,
): Promise<{ metaApiId: string; platform: Platform }> {
  let refusal: Error | undefined;
  for (const platform of platforms) {
    const body: Record<string, unknown> = {
      login: credentials.login,
      password: credentials.password,
      name: `${credentials.login}@${credentials.server}`,
      server: credentials.server,
      platform,
      magic: ROUTER_MAGIC,
      type: 'cloud-g2',
      // MetaApi's advice for accounts that trade real money: a second terminal takes over on failure.
      reliability: 'high',
    };
    let created = await create(ctx, http, token, body, deadline);
    if ('slots' in created && created.slots)
      created = await create(ctx, http, token, { ...body, resourceSlots: created.slots }, deadline);
    if ('id' in created) return { metaApiId: created.id, platform };
    if (created.code !== 'E_SRV_NOT_FOUND') throw created.error;
    // The first platform's refusal: MT5 suggestions, where most servers are.
    refusal ??= created.error;
  }
  throw refusal ?? fail('InvalidOrder', `server ${credentials.server} is not known to MetaApi`);
}

/**
 * Stops the account's terminal at MetaApi (POST …/undeploy), which bills a deployed account; the
 * account stays, so connecting again with the same credentials deploys it again. One MetaApi no
 * longer has (404) is already stopped.
 */
export async function undeployAccount(ctx: BrokerContext, token: string, metaApiId: string): Promise<void> {
  await provisioningClient(ctx, token).request({
    method: 'POST',
    path: `${accountPath(metaApiId)}/undeploy`,
    accept: [404],
  });
}
