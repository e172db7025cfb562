// Futures symbols as Tradovate names contracts: root + month code + one-digit year (WIRE.md §4).
//   ESZ2026, ESZ26, ESZ6 → ESZ6 (no call)
//   ES1!, ES2!         → the front (next) maturity Tradovate lists for product ES:
//     GET /product/find?name=ES → {id}; GET /contractMaturity/deps?masterid={id} → [{id,
//     expirationDate, isFront}]; GET /contract/deps?masterid={maturity id} → [{id, name}]
// Answers are kept an hour (continuous) or a day (contract ids), per origin.
import { oneDigitYear, parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import { TRADOVATE_TITLE } from './descriptor.ts';
import type { AccountClient } from './session.ts';

export interface Contract {
  id: number;
  name: string;
}

const CONTINUOUS_TTL_MS = 60 * 60_000;
const CONTRACT_TTL_MS = 24 * 60 * 60_000;
const MAX_ENTRIES = 1_000;
const cache = new Map<string, { contract: Contract; until: number }>();

const invalid = (message: string) => new BrokerError('InvalidOrder', TRADOVATE_TITLE, message);

function remember(key: string, contract: Contract, ttl: number, now: number): Contract {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value ?? '');
  cache.set(key, { contract, until: now + ttl });
  return contract;
}

function recalled(key: string, now: number): Contract | undefined {
  const entry = cache.get(key);
  return entry && entry.until > now ? entry.contract : undefined;
}

function contractOf(body: unknown): Contract | undefined {
  const id = decimalField(body, 'id');
  const name = stringField(body, 'name');
  return id !== undefined && name ? { id, name } : undefined;
}

type Parsed = { kind: 'dated'; name: string } | { kind: 'continuous'; root: string; position: number };

/** The symbol as Tradovate reads it; anything but a future is refused. */
export function parseContract(symbol: string, now: number): Parsed {
  const { parts } = parseSymbol(symbol, { now: () => now });
  if (parts.kind === 'future') {
    const digit = oneDigitYear(parts.year, parts.month, now);
    if (digit === undefined) throw invalid(`${symbol} is too far off to name with a one-digit year`);
    return { kind: 'dated', name: `${parts.root}${parts.monthCode}${digit}` };
  }
  if (parts.kind === 'continuous_future') return { kind: 'continuous', root: parts.root, position: parts.position };
  throw invalid(`${symbol} is not a futures contract; give one as ESZ2026 or ES1!`);
}

async function continuous(client: AccountClient, root: string, position: number, now: number): Promise<Contract> {
  const product = await client.call({ path: '/product/find', query: { name: root }, accept: [404] });
  const productId = product.status === 404 ? undefined : decimalField(product.body, 'id');
  if (productId === undefined) throw invalid(`unknown futures product ${root}`);
  const { body } = await client.call({ path: '/contractMaturity/deps', query: { masterid: productId } });
  const maturities = listOf(body)
    .map((item) => ({
      id: decimalField(item, 'id'),
      expires: Date.parse(stringField(item, 'expirationDate') ?? ''),
      front: item.isFront === true,
      archived: item.archived === true,
    }))
    .filter((item) => item.id !== undefined && item.expires > now && !item.archived)
    .sort((a, b) => a.expires - b.expires);
  // Tradovate's front month may already be the next maturity before the last one expires.
  const start = Math.max(
    0,
    maturities.findIndex((item) => item.front),
  );
  const maturity = maturities[start + position - 1];
  if (!maturity?.id) throw invalid(`no contract ${position} of ${root} is listed`);
  const contracts = await client.call({ path: '/contract/deps', query: { masterid: maturity.id } });
  const contract = listOf(contracts.body)
    .map(contractOf)
    .find((item) => item !== undefined);
  if (!contract) throw invalid(`no contract ${position} of ${root} is listed`);
  return contract;
}

async function dated(client: AccountClient, name: string): Promise<Contract> {
  const answer = await client.call({ path: '/contract/find', query: { name }, accept: [404] });
  const contract = answer.status === 404 ? undefined : contractOf(answer.body);
  if (!contract) throw invalid(`unknown contract ${name}`);
  return contract;
}

/** The contract the symbol means, with its id (close and cancel need it). */
export async function resolveContract(client: AccountClient, symbol: string, now: number): Promise<Contract> {
  const parsed = parseContract(symbol, now);
  const key =
    parsed.kind === 'dated' ? `${client.origin}|${parsed.name}` : `${client.origin}|${parsed.root}|${parsed.position}`;
  const known = recalled(key, now);
  if (known) return known;
  if (parsed.kind === 'dated') return remember(key, await dated(client, parsed.name), CONTRACT_TTL_MS, now);
  return remember(key, await continuous(client, parsed.root, parsed.position, now), CONTINUOUS_TTL_MS, now);
}

/** The contract name an order is sent with: dated names need no call. */
export async function contractName(client: AccountClient, symbol: string, now: number): Promise<string> {
  const parsed = parseContract(symbol, now);
  return parsed.kind === 'dated' ? parsed.name : (await resolveContract(client, symbol, now)).name;
}

/** Test support: forget what was resolved. */
export function forgetContracts(): void {
  cache.clear();
}
