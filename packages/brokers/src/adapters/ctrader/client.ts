// The calls of one account: on its environment's connection, authorized with the session's
// token, every payload carrying its ctidTraderAccountId. Refusals throw as typed errors. Two
// refusals mean cTrader did nothing, so the request goes again, once: a rate limit whose wait
// (retryAfter) fits the hook's answer time and the caller's deadline, and an account session the
// server dropped (ACCOUNT_NOT_AUTHORIZED), authorized again first. A token refused when the account
// is authorized (replaced by a refresh elsewhere) is taken anew through ctx.refreshSession.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import type { RequestOptions } from './connection.ts';
import { CTRADER_TITLE } from './descriptor.ts';
import { answerError, isRefusal, rateLimitWait } from './errors.ts';
import type { Pool } from './pool.ts';
import type { WireMessage } from './protocol.ts';
import { accountOf, type Endpoints, endpointOf } from './session.ts';

/** The longest rate-limit wait sat out before sending again: inside the hook's answer time. */
export const RATE_LIMIT_WAIT_S = 1;

export interface CallOptions {
  mutating?: boolean;
  match?: RequestOptions['match'];
}

export interface AccountClient {
  accountId: string;
  ctid: number;
  live: boolean;
  /** The answer to `name`; refusals throw. */
  call(name: string, payload: JsonRecord, options?: CallOptions): Promise<WireMessage>;
  /** This account's messages (execution events) from now on, until the function it resolves to is called. */
  listen(listener: (message: WireMessage) => void): Promise<() => void>;
}

function pause(ms: number, signal: AbortSignal | undefined, onAbort: () => BrokerError): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(onAbort());
    const stop = () => {
      clearTimeout(timer);
      reject(onAbort());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

export function accountClient(
  pool: Pool,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  endpoints?: Endpoints,
): AccountClient {
  const { state, account } = accountOf(session, accountId);
  const ctid = Number(account.id);
  const url = endpointOf(ctx, account.live, endpoints);
  const signal = ctx.signal ? { signal: ctx.signal } : {};

  let accessToken = state.accessToken;
  /**
   * Authorizes the account before anything is sent. A token refused there was replaced by a
   * refresh (cTrader ends the old one: another server instance renewed it): the server's renewal
   * hands back the session stored since (or renews it), and nothing was sent yet.
   */
  async function authorize(link: Awaited<ReturnType<Pool['link']>>): Promise<void> {
    try {
      await link.authorize(account.id, accessToken, ctx.signal);
    } catch (error) {
      if (!ctx.refreshSession || !isBrokerError(error) || error.kind !== 'AuthenticationError') throw error;
      const renewed = accountOf(await ctx.refreshSession(), accountId).state.accessToken;
      if (renewed === accessToken) throw error;
      accessToken = renewed;
      await link.authorize(account.id, accessToken, ctx.signal);
    }
  }

  async function send(name: string, payload: JsonRecord, options: CallOptions, retried: boolean): Promise<WireMessage> {
    const link = await pool.link(ctx, url);
    await authorize(link);
    const answer = await link.request(
      name,
      { ctidTraderAccountId: ctid, ...payload },
      { mutating: options.mutating ?? false, ...signal, ...(options.match ? { match: options.match } : {}) },
    );
    if (!isRefusal(answer)) return answer;
    const error = answerError(answer, options.mutating ?? false);
    if (retried) throw error;
    if (stringField(answer.payload, 'errorCode') === 'ACCOUNT_NOT_AUTHORIZED') {
      link.forget(account.id);
      return send(name, payload, options, true);
    }
    const wait = rateLimitWait(answer);
    if (wait === undefined || wait > RATE_LIMIT_WAIT_S) throw error;
    await pause(wait * 1000, ctx.signal, () => error);
    return send(name, payload, options, true);
  }

  return {
    accountId: account.id,
    ctid,
    live: account.live,
    call: (name, payload, options = {}) => send(name, payload, options, false),
    async listen(listener) {
      const link = await pool.link(ctx, url);
      return link.listen((message) => {
        if (decimalField(message.payload, 'ctidTraderAccountId') === ctid) listener(message);
      });
    },
  };
}

/** The message an answer must be, else cTrader answered something we cannot read. */
export function expectAnswer(answer: WireMessage, name: string, mutating = false): JsonRecord {
  if (answer.name === name) return answer.payload;
  throw new BrokerError('BrokerUnavailable', CTRADER_TITLE, `unexpected answer ${answer.name || answer.payloadType}`, {
    outcomeUnknown: mutating,
  });
}
