// Robinhood's crypto accounts and the two API versions that reach them (WIRE.md §2-3). v1 routes
// orders to market makers; v2 to partner exchanges with fee tiers and needs `account_number` on
// every account call. A connection lists each account once per version it answers on, so a hook
// chooses its route: account id "987654321" is v1, "v2:987654321" is v2.
import type { BrokerAccount, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import type { RobinhoodKeys } from './api.ts';
import { ROBINHOOD_TITLE } from './descriptor.ts';
import { privateKeyFrom } from './signing.ts';

export type ApiVersion = 'v1' | 'v2';

export interface AccountRef {
  version: ApiVersion;
  accountNumber: string;
}

const V2_PREFIX = 'v2:';

export const accountIdOf = (ref: AccountRef) => (ref.version === 'v2' ? V2_PREFIX : '') + ref.accountNumber;

/** The account a call names; it must belong to the connection. */
export function accountRefOf(session: BrokerSession, accountId: string): AccountRef {
  checkAccountInConnection(ROBINHOOD_TITLE, session, accountId);
  return accountId.startsWith(V2_PREFIX)
    ? { version: 'v2', accountNumber: accountId.slice(V2_PREFIX.length) }
    : { version: 'v1', accountNumber: accountId };
}

/** `/api/<version>/crypto/trading/<resource>` with account_number on v2 (every path ends in /). */
export function route(ref: AccountRef, resource: string, query: Record<string, string | undefined> = {}) {
  return {
    path: `/api/${ref.version}/crypto/trading/${resource}`,
    query: ref.version === 'v2' ? { account_number: ref.accountNumber, ...query } : query,
  };
}

/** The keys of a stored session. */
export function keysOf(session: BrokerSession): RobinhoodKeys {
  const { apiKey, privateKey } = session.secrets;
  const key = privateKey ? privateKeyFrom(privateKey) : undefined;
  if (!apiKey || !key) throw new BrokerError('AuthenticationError', ROBINHOOD_TITLE, 'reconnect: keys missing');
  return { apiKey, privateKey: key };
}

function toAccount(body: unknown, version: ApiVersion): BrokerAccount | undefined {
  const accountNumber = stringField(body, 'account_number');
  const status = stringField(body, 'status');
  if (!accountNumber || status === 'deactivated') return undefined;
  const route = version === 'v2' ? ' (v2, fee tiers)' : '';
  const sellOnly = status === 'sell_only' ? ', sell only' : '';
  return {
    id: accountIdOf({ version, accountNumber }),
    name: `Robinhood Crypto ${accountNumber}${route}${sellOnly}`,
    dataTitle: accountNumber,
    dataType: 'cash',
    dataCurrency: stringField(body, 'buying_power_currency') ?? 'USD',
    demo: false,
  };
}

/** v1 answers one account object, v2 a page of them; either may be absent (404). */
export function accountsOf(v1: unknown, v2: unknown): BrokerAccount[] {
  const first = v1 === undefined ? undefined : toAccount(v1, 'v1');
  const rest = listOf(asRecord(v2)?.results).map((item) => toAccount(item, 'v2'));
  return [first, ...rest].filter((account): account is BrokerAccount => account !== undefined);
}

/** The account object of this ref from a v1 or v2 accounts answer. */
export function accountBody(ref: AccountRef, body: unknown): unknown {
  if (ref.version === 'v1') return body;
  return listOf(asRecord(body)?.results).find((item) => stringField(item, 'account_number') === ref.accountNumber);
}
