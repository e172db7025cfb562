// A ccxt exchange instance set up the way every adapter needs it: credentials, no rate-limit
// queue, no retries, a deadline, the caller's abort signal, and every API URL pointed at one base
// URL when the context overrides the exchange's own (`<NAME>_BASE_URL`, a fake in tests).
import type { Exchange } from 'ccxt';

import { isErrorPage } from '../core/http-errors.ts';
import { type CcxtModule, loadCcxt } from './ccxt-module.ts';

export type ExchangeClass = new (config: Record<string, unknown>) => Exchange;
/** Picks the exchange's class out of the (lazily loaded) ccxt module. */
export type ExchangeClassOf = (ccxt: CcxtModule) => ExchangeClass;

export interface ExchangeCredentials {
  apiKey: string;
  secret: string;
  uid?: string;
}

export interface ExchangeSetup {
  credentials?: ExchangeCredentials;
  /** The context's base URL; replaces every `urls.api` entry unless it is `defaultBaseUrl`. */
  baseUrl?: string;
  /** The exchange's production URL (the descriptor's baseUrl): no override when equal. */
  defaultBaseUrl?: string;
  /** The exchange's testnet (ccxt's `urls.test`), where it has one. */
  sandbox?: boolean;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Load the exchange's currency list too (BitMEX needs it to scale balances). */
  currencies?: boolean;
  /** ccxt `options` of the exchange. */
  options?: Record<string, unknown>;
}

const CCXT_TIMEOUT_MS = 10_000;

type UrlTable = Record<string, unknown>;

function isRecord(value: unknown): value is UrlTable {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every string entry of `urls.api` (and its nested tables) replaced by `baseUrl`. */
function overrideApiUrls(api: unknown, baseUrl: string): unknown {
  if (typeof api === 'string') return baseUrl;
  if (!isRecord(api)) return api;
  const result: UrlTable = {};
  for (const [key, value] of Object.entries(api)) result[key] = overrideApiUrls(value, baseUrl);
  return result;
}

const lastAnswer = new WeakMap<Exchange, LastAnswer>();

/** The exchange's last answer: its HTTP status and the path it answered. */
export interface LastAnswer {
  status: number;
  path: string;
  /** A 401 or 403 that is an HTML page or nothing: a CDN's or a firewall's, not the exchange's words. */
  page?: boolean;
}

/**
 * The exchange's last answer: ccxt files some 5xx bodies under ExchangeError, and some exchanges
 * answer the same words for different calls (Kraken's "Permission denied").
 */
export function lastAnswerOf(exchange: Exchange): LastAnswer | undefined {
  return lastAnswer.get(exchange);
}

/** fetch with the caller's signal joined to ccxt's own (its timeout), noting each answer. */
function fetchWithSignal(signal: AbortSignal | undefined, onAnswer: (answer: LastAnswer) => void): typeof fetch {
  return async (input, init) => {
    const own = init?.signal ?? undefined;
    const joined = signal && own ? AbortSignal.any([signal, own]) : (signal ?? own);
    const response = await fetch(input, { ...init, ...(joined ? { signal: joined } : {}), redirect: 'error' });
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const { status } = response;
    const page =
      (status === 401 || status === 403) &&
      isErrorPage(
        (await response
          .clone()
          .text()
          .catch(() => '')) || undefined,
      );
    onAnswer({ status, path: new URL(url).pathname, ...(page ? { page } : {}) });
    return response;
  };
}

/** Readies an exchange for a call: the call's abort signal on its requests, no last answer yet. */
export function armExchange(exchange: Exchange, signal: AbortSignal | undefined): void {
  lastAnswer.delete(exchange);
  exchange.fetchImplementation = fetchWithSignal(signal, (answer) => lastAnswer.set(exchange, answer));
}

export async function createExchange(classOf: ExchangeClassOf, setup: ExchangeSetup): Promise<Exchange> {
  const Class = classOf(await loadCcxt());
  const exchange = new Class({
    ...(setup.credentials ? setup.credentials : {}),
    enableRateLimit: false,
    timeout: setup.timeoutMs ?? CCXT_TIMEOUT_MS,
    // Never resend a request: a resent order could be a second order.
    options: { maxRetriesOnFailure: 0, ...setup.options },
  });
  armExchange(exchange, setup.signal);
  // Markets come from the exchange's market list alone; currencies endpoints are not needed.
  if (!setup.currencies) exchange.has.fetchCurrencies = false;
  if (setup.sandbox) exchange.setSandboxMode(true);
  const baseUrl = setup.baseUrl?.replace(/\/+$/, '');
  if (baseUrl && baseUrl !== setup.defaultBaseUrl?.replace(/\/+$/, '')) {
    const urls = exchange.urls as { api: unknown; test?: unknown };
    urls.api = overrideApiUrls(urls.api, baseUrl);
    if (urls.test !== undefined) urls.test = overrideApiUrls(urls.test, baseUrl);
  }
  return exchange;
}
