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

/** What a trade line's result means: a repeat is no order of its own; an unknown may be final. */
export function resultTitle(result: string, repeat = false, checking = true): string {
  if (repeat) return 'Sent again by its sender: answered as the first signal, nothing placed again';
  if (result === 'unknown' && !checking) {
    return 'The broker could not confirm the order, and is no longer asked: check your broker account';
  }
  return RESULT_TITLE[result] ?? '';
}

/** The result, or "repeat" for a signal sent again (its first one's line shows the result). */
export function ResultPill({ result, repeat = false, checking = true }: PillProps) {
  const shown = repeat ? 'repeat' : result;
  return (
    <span
      className={`badge rounded-pill text-bg-${TONE[shown] ?? 'secondary'}`}
      data-testid="trade-result"
      data-result={result}
      title={resultTitle(result, repeat, checking)}
    >
      {resultLabel(shown)}
    </span>
  );
}

export interface PillProps {
  result: string;
  repeat?: boolean;
  /** An unknown result still being looked up at the broker. */
  checking?: boolean;
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

/** One Order row's trade line: webhook, order, result, elapsed time with its split, broker order id. */
export function TradeSummary({ trade }: { trade: Trade }) {
  const split = phaseSplit(trade);
  return (
    <span className="d-flex flex-wrap align-items-center column-gap-2 row-gap-1 small" data-testid="trade-line">
      <ResultPill result={trade.result} repeat={trade.repeat} checking={trade.checking} />
      <span className="fw-semibold">{trade.hookName ?? 'Webhook'}</span>
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
