// Users for browser journeys, made through the API as a program would: sign up, confirm the
// email from the mail in the server log, and hand the session token to a page.
import type { Page } from 'playwright-core';
import { mailCount, mailLink } from '../server-mail.ts';
import { serverUrl } from './server.ts';

export interface TestUser {
  email: string;
  password: string;
  token: string;
}

interface GraphQLAnswer<Data> {
  data?: Data | null;
  errors?: Array<{ message: string }>;
}

/**
 * A GraphQL call with the user's token; GraphQL errors throw. `address`: the client address the
 * server should see (X-Forwarded-For, honoured with TRUST_PROXY as global-setup.ts sets it).
 */
export async function graphql<Data>(
  token: string,
  query: string,
  variables: Record<string, unknown> = {},
  address?: string,
) {
  const response = await fetch(`${serverUrl()}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      ...(address ? { 'x-forwarded-for': address } : {}),
    },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json()) as GraphQLAnswer<Data>;
  if (answer.errors?.length || !answer.data) {
    throw new Error(`GraphQL: ${answer.errors?.map((e) => e.message).join('; ') ?? response.status}`);
  }
  return answer.data;
}

/** A documentation address (RFC 5737 TEST-NET-3) of its own for each person made here. */
const personAddress = (): string => `203.0.113.${1 + Math.floor(Math.random() * 254)}`;

/**
 * A new, confirmed customer with a session token (`email`: a given address, e.g. of ADMIN_EMAILS).
 * Each signs up from an address of their own, as separate people do: the whole suite's sign-ups
 * from one address would exceed the server's per-address sign-up limit (20 in 10 minutes).
 */
export async function createUser(
  prefix = 'e2e',
  email = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`,
): Promise<TestUser> {
  const password = 'Quartz-Lantern-42!';
  const before = mailCount();
  const address = personAddress();
  await graphql(
    '',
    `mutation ($credentials: JSON!) { signup(type: "password", credentials: $credentials, firstName: "Journey") { id } }`,
    { credentials: { email, password } },
    address,
  );
  const link = new URL(await mailLink(email, '/auth/email?token=', before));
  const confirmation = link.searchParams.get('token') ?? '';
  const { authEmailConfirm } = await graphql<{ authEmailConfirm: { token: string } }>(
    '',
    'mutation ($token: String!) { authEmailConfirm(token: $token) { token } }',
    { token: confirmation },
    address,
  );
  return { email, password, token: authEmailConfirm.token };
}

/** Signs the page in before any of its scripts run (SPEC §9 local storage key `token`). */
export async function signInPage(page: Page, user: TestUser): Promise<void> {
  await page.addInitScript((token) => window.localStorage.setItem('token', token), user.token);
}

/** Connects the built-in paper broker (no credentials); returns the connector key. */
export async function connectPaper(user: TestUser): Promise<string> {
  await graphql(user.token, 'mutation { connectorCreate(providerName: "paper") { credentials } }');
  const { connectorActivate } = await graphql<{ connectorActivate: { key: string } }>(
    user.token,
    'mutation { connectorActivate(providerName: "paper", credentials: []) { key } }',
  );
  return connectorActivate.key;
}
