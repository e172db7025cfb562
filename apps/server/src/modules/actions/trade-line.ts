// An Order entry as a trade line (issue #21): which webhook, what order, how it ended, how long
// each phase took. From the entry's metadata (hook, request, response, elapsed, phases) and its
// stored signal (normalized order, status, broker order id, fill price). Refused calls have no
// signal: their line reads the request as sent, as far as it is an object.
import { isObject } from '@router/shared';
import type { ActionRow, SignalFacts, TradeResult } from '../../db/repositories/action-query.repository.ts';

export const TRADE_RESULTS: readonly TradeResult[] = [
  'placed',
  'filled',
  'rejected',
  'refused',
  'queued',
  'unknown',
  'draft',
];

export interface TradePhases {
  parse: number | null;
  store: number | null;
  broker: number | null;
}

export interface TradeLine {
  hookKey: string | null;
  hookName: string | null;
  /** Who placed a REST API order: the application's name, or the personal token's (`API token "bot"`). */
  via: string | null;
  providerName: string | null;
  accountId: string | null;
  isTest: boolean;
  symbol: string | null;
  side: string | null;
  quantity: number | null;
  orderType: string | null;
  /** The fill price when the broker told it, else the order's limit (or stop) price. */
  price: number | null;
  result: TradeResult;
  /** A repeat of an earlier signal (resent by its sender): answered as the first, nothing placed. */
  repeat: boolean;
  /** An 'unknown' result still being looked up at the broker; false once it is final. */
  checking: boolean;
  /**
   * The broker's status, or the refusal's ('ValidationError', …); a queued call's: queued, placed,
   * refused or cancelled, as its queued signal is now.
   */
  status: string | null;
  elapsedMs: number | null;
  phases: TradePhases;
  brokerOrderId: string | null;
  /** JSON texts for the detail view; null when there is none. */
  order: string | null;
  response: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const num = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** A call with no stored signal was refused, or queued outside its webhook's trading windows. */
export function tradeResult(signal: SignalFacts | null, answerStatus: unknown): TradeResult {
  if (!signal) return answerStatus === 'queued' ? 'queued' : 'refused';
  switch (signal.status) {
    case 'filled':
    case 'rejected':
    case 'unknown':
    case 'draft':
      return signal.status;
    case 'failed':
      return 'rejected';
    default:
      return 'placed';
  }
}

/** The trade line of an Order entry; null for any other action. */
export function tradeLine(row: ActionRow): TradeLine | null {
  if (row.code !== 'Order' || !isObject(row.metadata)) return null;
  const meta = row.metadata;
  const hook = isObject(meta.hook) ? meta.hook : {};
  const response = isObject(meta.response) ? meta.response : null;
  const order = row.signal && isObject(row.signal.order) ? row.signal.order : null;
  // What the line shows of the order: the normalized one, or the refused request as sent.
  const source = order ?? (isObject(meta.request) ? meta.request : {});
  const phases = isObject(meta.phases) ? meta.phases : {};
  const result = tradeResult(row.signal, response?.status);
  return {
    hookKey: text(hook.key),
    hookName: text(hook.name),
    via: text(hook.via),
    providerName: text(meta.providerName),
    accountId: text(meta.accountId),
    isTest: meta.isTest === true,
    symbol: text(source.symbol),
    side: text(source.action),
    quantity: num(source.quantity),
    orderType: text(source.type),
    price: row.signal?.price ?? num(response?.price) ?? num(source.limit_price) ?? num(source.stop_price),
    result,
    repeat: row.repeat === true,
    checking: result === 'unknown' && row.signal?.completed !== true,
    // A queued call: what became of it (placed at the opening, refused then, cancelled), not the
    // 'queued' it was answered with.
    status:
      (result === 'queued' ? text(row.queuedStatus) : null) ?? text(response?.status) ?? row.signal?.status ?? null,
    elapsedMs: num(meta.elapsed),
    phases: { parse: num(phases.parse), store: num(phases.store), broker: num(phases.broker) },
    brokerOrderId: row.signal?.brokerOrderId ?? null,
    order: order ? JSON.stringify(order) : null,
    response: response ? JSON.stringify(response) : null,
  };
}
