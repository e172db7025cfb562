// The brokerage session of a connection (WIRE.md §1): nothing under /iserver works until
// POST /iserver/auth/ssodh/init opened it, it closes after a few idle minutes, and
// GET /iserver/accounts must be read once in it before orders are queried or changed. A session
// checked in the last minute is trusted; older, POST /tickle says whether it is still open
// (and keeps it so), and a closed one is opened again. Through a Client Portal Gateway the
// login itself cannot be renewed from here, so the gateway is tickled every minute as well.
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import type { HttpRequest, HttpResponse } from '../../core/http.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import { IBKR_TITLE } from './descriptor.ts';
import { SUPPRESSED_QUESTIONS } from './questions.ts';
import { errorInBody, failure, type Signer } from './transport.ts';

/** A session confirmed this recently is used without asking (IBKR times out after minutes). */
export const CHECK_INTERVAL_MS = 55_000;

export interface Brokerage extends Signer {
  checkedAt: number;
  /** The session id /tickle reports; a new one needs /iserver/accounts again. */
  sessionId?: string;
  /** GET /iserver/accounts of the current session. */
  accounts?: unknown;
  /** GET /portfolio/accounts, which must precede other /portfolio calls. */
  portfolioAccounts?: unknown;
  /** Whether the live orders were read in this session (the first answer may be empty, WIRE.md §6). */
  liveOrdersRead?: boolean;
  opening?: Promise<void>;
}

export type RawSend = (ctx: BrokerContext, brokerage: Brokerage, request: HttpRequest) => Promise<HttpResponse>;

const gatewayLoggedOut = () =>
  new BrokerError(
    'AuthenticationError',
    IBKR_TITLE,
    'the Client Portal Gateway is not logged in: log in at its page, then connect again',
  );

async function body(send: RawSend, ctx: BrokerContext, brokerage: Brokerage, request: HttpRequest): Promise<unknown> {
  const response = await send(ctx, brokerage, request);
  if (response.status === 401 && brokerage.credentials.mode === 'gateway') throw gatewayLoggedOut();
  if (response.status >= 300) throw failure(response, false);
  const error = errorInBody(response.body);
  if (error) throw new BrokerError('BrokerUnavailable', IBKR_TITLE, error);
  return response.body;
}

async function open(send: RawSend, ctx: BrokerContext, brokerage: Brokerage, reopen: boolean, now: number) {
  const tickle = await body(send, ctx, brokerage, { method: 'POST', path: '/tickle', mutating: false });
  const status = asRecord(asRecord(asRecord(tickle)?.iserver)?.authStatus);
  if (reopen || status?.authenticated !== true) {
    const init = await body(send, ctx, brokerage, {
      method: 'POST',
      path: '/iserver/auth/ssodh/init',
      json: { publish: true, compete: true },
      mutating: false,
    });
    if (asRecord(init)?.authenticated !== true) {
      const reason = stringField(init, 'message');
      throw new BrokerError(
        'BrokerUnavailable',
        IBKR_TITLE,
        `the brokerage session did not open${reason ? `: ${reason}` : ''}`,
      );
    }
    brokerage.accounts = undefined;
    brokerage.portfolioAccounts = undefined;
    brokerage.liveOrdersRead = false;
  }
  const sessionId = stringField(tickle, 'session');
  if (sessionId !== brokerage.sessionId) {
    brokerage.sessionId = sessionId;
    brokerage.accounts = undefined;
    brokerage.portfolioAccounts = undefined;
    brokerage.liveOrdersRead = false;
    brokerage.liveOrdersRead = false;
  }
  if (brokerage.accounts === undefined) {
    brokerage.accounts = await body(send, ctx, brokerage, { path: '/iserver/accounts' });
    // Saves a reply round for the warnings we confirm anyway (WIRE.md §4); the loop stays.
    await body(send, ctx, brokerage, {
      method: 'POST',
      path: '/iserver/questions/suppress',
      json: { messageIds: SUPPRESSED_QUESTIONS },
      mutating: false,
    }).catch(() => undefined);
  }
  brokerage.checkedAt = now;
}

/** Opens or confirms the brokerage session; concurrent callers share one attempt. */
export function ensureBrokerage(
  send: RawSend,
  ctx: BrokerContext,
  brokerage: Brokerage,
  now: number,
  options: { check?: boolean; reopen?: boolean } = {},
): Promise<void> {
  const fresh = brokerage.accounts !== undefined && now - brokerage.checkedAt < CHECK_INTERVAL_MS;
  if (fresh && !options.check && !options.reopen) return Promise.resolve();
  brokerage.opening ??= open(send, ctx, brokerage, options.reopen === true, now).finally(() => {
    brokerage.opening = undefined;
  });
  return brokerage.opening;
}

/** Keeps a gateway's session open every `intervalMs` while it stays logged in; stops at the first failure. */
export function keepGatewayAlive(
  send: RawSend,
  ctx: BrokerContext,
  brokerage: Brokerage & { keepAlive?: NodeJS.Timeout },
  intervalMs: number,
  now: () => number,
): void {
  if (brokerage.keepAlive || brokerage.credentials.mode !== 'gateway') return;
  // In the background: no caller's deadline.
  const quiet = { baseUrl: ctx.baseUrl };
  const timer = setInterval(() => {
    ensureBrokerage(send, quiet, brokerage, now(), { check: true }).catch(() => {
      clearInterval(timer);
      brokerage.keepAlive = undefined;
    });
  }, intervalMs);
  timer.unref();
  brokerage.keepAlive = timer;
}
