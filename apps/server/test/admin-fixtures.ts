// GraphQL documents, database reads and checks shared by the admin tests.
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { bearer, type GqlResult, gql } from './identity.ts';

export const REWARD = `mutation($email: String!, $credits: Int!) { adminAccountReward(email: $email, credits: $credits) }`;
export const REFERRER_CREATE = `mutation($name: String, $providerName: String, $credits: Int!) {
  adminReferrerCreate(name: $name, providerName: $providerName, credits: $credits) { code name providerName credits }
}`;
export const REFERRER_DELETE = `mutation($ref: String!) { adminReferrerDelete(referrerCodeOrUrl: $ref) }`;
export const STATS = `{ adminReferrerStatsReport }`;
export const PROXY_START = `mutation($email: String!) { adminProxyStart(email: $email) }`;
export const PROXY_END = `mutation($email: String!) { adminProxyEnd(email: $email) }`;
export const PROFESSIONAL = `mutation($email: String!, $on: Boolean!) {
  adminUserProfessional(email: $email, isProfessional: $on) { email group }
}`;
export const AUDIT = `query($limit: Int, $from: Float) {
  adminAuditLog(limit: $limit, createdAtFrom: $from) { id createdAt adminEmail targetEmail action details }
}`;
export const SIGNUP_REFERRED = `mutation($credentials: JSON!, $referrerCode: String, $promotionCode: String) {
  signup(type: "password", credentials: $credentials, referrerCode: $referrerCode, promotionCode: $promotionCode) { key group }
}`;
export const SIGNUP_REFERRER = `query($code: String!) { signupReferrer(code: $code) { code name credits isActive } }`;

export interface AuditEntry {
  id: number;
  createdAt: number;
  adminEmail: string;
  targetEmail: string | null;
  action: string;
  details: string;
}

/** The audit log as the administrator with `token` reads it (newest first). */
export async function readAudit(t: TestApp, token: string, limit?: number, from?: number): Promise<AuditEntry[]> {
  const res = await gql<{ adminAuditLog: AuditEntry[] }>(t.app, AUDIT, { limit, from }, bearer(token));
  if (!res.data) throw new Error(JSON.stringify(res.errors));
  return res.data.adminAuditLog;
}

/**
 * A refused admin call: our own message (a VALIDATION error) or, for a pattern, GraphQL's own
 * (an Int argument given a fraction or a number beyond 32 bits never reaches the resolver).
 */
export function expectRefusal(res: GqlResult, message: string | RegExp): void {
  if (typeof message === 'string') {
    expect(res.errors?.[0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
  } else {
    expect(res.errors?.[0]?.message).toMatch(message);
  }
}

async function one<T>(t: TestApp, text: string, values: unknown[]): Promise<T> {
  const { rows } = await t.services.db.$client.query(text, values);
  return rows[0] as T;
}

export async function balanceOf(t: TestApp, email: string): Promise<number> {
  const row = await one<{ balance: number }>(
    t,
    'select a.balance from accounts a join users u on u.id = a.user_id where u.email = $1',
    [email],
  );
  return row.balance;
}

/** A user's ledger, oldest first, and its sum (which must equal the balance). */
export async function ledgerOf(t: TestApp, email: string) {
  const { rows } = await t.services.db.$client.query<{ cause: string; credits: number; reference: string | null }>(
    `select l.cause, l.credits, l.reference from credit_ledger l join users u on u.id = l.user_id
     where u.email = $1 order by l.id`,
    [email],
  );
  return rows;
}

/** How many rows the tables an admin call may change hold: a refused call changes none of them. */
export async function footprint(t: TestApp) {
  return one<Record<string, string>>(
    t,
    `select (select count(*) from admin_audit_log) as audit, (select count(*) from credit_ledger) as ledger,
      (select count(*) from referrers) as referrers, (select count(*) from referrers where deleted_at is not null) as deleted,
      (select string_agg("group"::text, ',' order by id) from users) as groups`,
    [],
  );
}
