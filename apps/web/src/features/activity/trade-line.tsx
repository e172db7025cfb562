import { formatCount, formatPrice, formatQuantity } from '../../lib/format.ts';
import { resultLabel } from './filters.ts';
import type { ActionRow } from './use-activity.ts';

export type Trade = NonNullable<ActionRow['trade']>;

/** The result pill's colour per result (issue #21). */
const TONE: Record<string, string> = {
  placed: 'primary',
  filled: 'success',
  rejected: 'danger',
  refused: 'warning',
  queued: 'light border',
  unknown: 'secondary',
  draft: 'info',
  repeat: 'light border',
};

/** What each result means, as the pill's title and the detail's first line. */
export const RESULT_TITLE: Record<string, string> = {
  placed: 'The broker took the order',
  filled: 'The broker filled the order',
  rejected: 'The broker refused the order',
  refused: 'Refused before reaching the broker: nothing was sent',
  queued:
    "Outside the webhook's trading windows: held, and sent when a window opens (the placement is an entry of its own)",
  unknown: 'No answer from the broker yet: it is being checked',
  draft: 'Test webhook: the signal was checked and stored, nothing was sent to the broker',
};

/** What became of a queued signal at or before its window's opening (its entry's status). */
const QUEUED_END: Record<string, string> = {
  placed: 'then placed when a window opened (the placement is an entry of its own)',
  refused: 'then refused when a window opened: nothing was sent',
  cancelled: 'then cancelled: nothing was sent',
};

/**
 * What a trade line's result means: a repeat is no order of its own; an unknown may be final; a
 * queued signal (`status`: what became of it) may have been placed, refused or cancelled since.
 */
export function resultTitle(result: string, repeat = false, checking = true, status?: string | null): string {
  if (repeat) return 'Sent again by its sender: answered as the first signal, nothing placed again';
  if (result === 'unknown' && !checking) {
    return 'The broker could not confirm the order, and is no longer asked: check your broker account';
  }
  const end = result === 'queued' && status ? QUEUED_END[status] : undefined;
  if (end) return `Queued outside the webhook's trading windows, ${end}`;
  return RESULT_TITLE[result] ?? '';
}

/** A queued signal's pill names what became of it: "queued · cancelled". */
const pillText = (shown: string, status?: string | null): string =>
  shown === 'queued' && status && QUEUED_END[status] ? `queued · ${status}` : resultLabel(shown);

/** The result, or "repeat" for a signal sent again (its first one's line shows the result). */
export function ResultPill({ result, repeat = false, checking = true, status }: PillProps) {
  const shown = repeat ? 'repeat' : result;
  return (
    <span
      className={`badge rounded-pill text-bg-${TONE[shown] ?? 'secondary'}`}
      data-testid="trade-result"
      data-result={result}
      title={resultTitle(result, repeat, checking, status)}
    >
      {pillText(shown, status)}
    </span>
  );
}

export interface PillProps {
  result: string;
  repeat?: boolean;
  /** An unknown result still being looked up at the broker. */
  checking?: boolean;
  /** The trade line's status: a queued signal's tells what became of it. */
  status?: string | null;
}

const ms = (value: number | null | undefined) =>
  value === null || value === undefined ? null : `${formatCount(value)} ms`;

/** "parse 0.4 · store 1.2 · broker 40" of the phases that ran. */
export function phaseSplit(trade: Trade): string {
  const parts = (['parse', 'store', 'broker'] as const)
    .map((phase) => [phase, trade.phases[phase]] as const)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([phase, value]) => `${phase} ${formatQuantity(value as number)}`);
  return parts.join(' · ');
}

/** What the order was: "buy 2 AAPL market @ 187.5", "buy 0.0015 BTC/USD market @ 64,000". */
export function orderText(trade: Trade): string {
  const parts = [
    trade.side,
    trade.quantity === null ? null : formatQuantity(trade.quantity),
    trade.symbol,
    trade.orderType,
  ];
  const text = parts.filter((part) => part !== null && part !== '').join(' ');
  return trade.price === null ? text || '-' : `${text || '-'} @ ${formatPrice(trade.price)}`;
}

/** One Order row's trade line: webhook (and a REST API order's caller), order, result, elapsed time with its split, broker order id. */
export function TradeSummary({ trade }: { trade: Trade }) {
  const split = phaseSplit(trade);
  return (
    <span className="d-flex flex-wrap align-items-center column-gap-2 row-gap-1 small" data-testid="trade-line">
      <ResultPill result={trade.result} repeat={trade.repeat} checking={trade.checking} status={trade.status} />
      <span className="fw-semibold">{trade.hookName ?? 'Webhook'}</span>
      {trade.via && <span className="text-secondary">via {trade.via}</span>}
      {trade.isTest && trade.result !== 'draft' && <span className="badge text-bg-light border">test</span>}
      <span className="font-monospace">{orderText(trade)}</span>
      {trade.elapsedMs !== null && (
        <span className="text-secondary" title={split ? `${split} ms` : undefined}>
          {ms(trade.elapsedMs)}
          {split && <span className="d-none d-lg-inline"> ({split})</span>}
        </span>
      )}
      {trade.brokerOrderId && <span className="text-secondary text-break">order {trade.brokerOrderId}</span>}
    </span>
  );
}
