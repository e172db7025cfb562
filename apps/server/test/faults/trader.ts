// A trader made through the public API of a running server, as a person would: sign-up, the
// confirmation link from the mail (caught by a loopback SMTP sink), a broker connection and
// hooks over GraphQL. Only the credit top-up is SQL (no payment provider on loopback).
import type pg from 'pg';
import { linkIn, type SmtpSink } from '../smtp-sink.ts';

export const TRADER_PASSWORD = 'Quartz-Lantern-Mosaic-91!';

export interface Trader {
  email: string;
  token: string;
  userId: number;
  connectorKey: string;
  accountId: string;
  /** Short keys of the hooks made, in the order asked. */
  hooks: string[];
}

interface GqlAnswer<T> {
  data?: T | null;
  errors?: Array<{ message: string }>;
}

export async function gqlHttp<T>(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await res.json()) as GqlAnswer<T>;
  if (!answer.data || answer.errors?.length) throw new Error(`GraphQL: ${JSON.stringify(answer.errors)}`);
  return answer.data;
}

export interface TraderOptions {
  provider?: string;
  credentials?: string[];
  /** One hook per entry: true makes a test hook. */
  hooks?: boolean[];
  /** Sets the balance (signals left) by SQL, for load runs. */
  balance?: number;
}

export async function createTrader(
  url: string,
  smtp: SmtpSink,
  sql: pg.Pool,
  options: TraderOptions = {},
): Promise<Trader> {
  const email = `trader-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const since = smtp.mails.length;
  await gqlHttp(url, 'mutation($c: JSON!) { signup(type: "password", credentials: $c, firstName: "Bench") { id } }', {
    c: { email, password: TRADER_PASSWORD },
  });
  const { token: confirm } = linkIn(await smtp.waitFor(email, since), '/auth/email');
  const { authEmailConfirm } = await gqlHttp<{ authEmailConfirm: { token: string } }>(
    url,
    'mutation($t: String!) { authEmailConfirm(token: $t) { token } }',
    { t: confirm },
  );
  const token = authEmailConfirm.token;
  const provider = options.provider ?? 'paper';
  await gqlHttp(url, 'mutation($p: String!) { connectorCreate(providerName: $p) { type } }', { p: provider }, token);
  const { connectorActivate } = await gqlHttp<{ connectorActivate: { key: string; accounts: string } }>(
    url,
    'mutation($p: String!, $c: [String!]!) { connectorActivate(providerName: $p, credentials: $c) { key accounts } }',
    { p: provider, c: options.credentials ?? [] },
    token,
  );
  const accounts = JSON.parse(connectorActivate.accounts) as Array<{ id: string }>;
  const accountId = accounts[0]?.id;
  if (!accountId) throw new Error('the connection has no account');
  const hooks: string[] = [];
  for (const isTest of options.hooks ?? [false, true]) {
    const { hookCreate } = await gqlHttp<{ hookCreate: { shortKey: string } }>(
      url,
      'mutation($a: String!, $k: String!, $t: Boolean) { hookCreate(accountId: $a, connectorKey: $k, isTest: $t) { shortKey } }',
      { a: accountId, k: connectorActivate.key, t: isTest },
      token,
    );
    hooks.push(hookCreate.shortKey);
  }
  const { rows } = await sql.query<{ id: string }>('select id from users where lower(email) = lower($1)', [email]);
  const userId = Number(rows[0]?.id);
  if (options.balance !== undefined) await setBalance(sql, userId, options.balance);
  return { email, token, userId, connectorKey: connectorActivate.key, accountId, hooks };
}

/** Credits by SQL (the drills and the benchmark need more than a new account's 5). */
export async function setBalance(sql: pg.Pool, userId: number, balance: number): Promise<void> {
  await sql.query('update accounts set balance = $2 where user_id = $1', [userId, balance]);
}

export async function balanceOf(sql: pg.Pool, userId: number): Promise<number> {
  const { rows } = await sql.query<{ balance: number }>('select balance from accounts where user_id = $1', [userId]);
  return Number(rows[0]?.balance);
}
