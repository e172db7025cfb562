import { addressLabel, describeAction } from '@router/shared';
import { Fragment, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import { formatDateTime, formatIsoSeconds } from '../../lib/format.ts';
import { useOptionalProviders } from '../../lib/providers.tsx';
import { orderCallOf } from './order-call.ts';
import { OrderCallDetails } from './order-call-details.tsx';
import { phaseSplit, TradeSummary } from './trade-line.tsx';
import type { ActionRow } from './use-activity.ts';

/**
 * The address on one line; an IPv6 one wraps only between its groups (never 203.0.113.17|5). The
 * platform label may go under it: on a phone it sits in the Date column, which it would widen.
 */
function Source({ address }: { address: string | null }) {
  if (!address) return <span>-</span>;
  const label = addressLabel(address);
  const groups = address.split(/(?<=:)/);
  return (
    <span>
      <span className={groups.length > 1 ? undefined : 'text-nowrap'}>
        {groups.map((group, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the groups of one address, in order
          <Fragment key={index}>
            {index > 0 && <wbr />}
            {group}
          </Fragment>
        ))}
      </span>
      {label && (
        <>
          {' '}
          <Badge bg="secondary">{label}</Badge>
        </>
      )}
    </span>
  );
}

/**
 * A description that opens with a webhook key ('Webhook 3Fq… (Main) called'): the key stays on
 * one line and ends in an ellipsis where the cell is narrow; its title and a copy give it whole.
 */
function Description({ text }: { text: string }) {
  const keyed = /^(Webhook )(\S+)( .*)?$/s.exec(text);
  if (!keyed) return <span className="activity-description">{text}</span>;
  const [, lead, key, rest = ''] = keyed;
  return (
    <span className="activity-description">
      {lead}
      <span className="hook-key" title={key}>
        {key}
      </span>
      {rest}
    </span>
  );
}

/**
 * One action (SPEC §2 Last actions). An Order row from a webhook expands on click; its
 * description is a button, so Enter and Space work from the keyboard.
 */
export function ActivityRow({ action, initiallyExpanded = false }: { action: ActionRow; initiallyExpanded?: boolean }) {
  const [expanded, setExpanded] = useState(initiallyExpanded);
  const { trade } = action;
  const call = orderCallOf(action.code, action.metadata, trade?.order ?? null, trade?.repeat ?? false, trade?.status);
  const titles = useOptionalProviders()?.titles;
  const description = describeAction(action.code, action.metadata, titles);
  const iso = formatIsoSeconds(action.createdAt);
  const detailsId = `action-${action.id}-details`;
  const toggle = () => setExpanded((open) => !open);

  return (
    <>
      <tr className={call ? 'activity-row-expandable' : undefined} onClick={call ? toggle : undefined}>
        <td className="text-break">
          {call ? (
            <button
              type="button"
              className="btn btn-link p-0 text-start text-body text-decoration-none activity-toggle"
              aria-expanded={expanded}
              aria-controls={detailsId}
            >
              <span aria-hidden="true" className="me-1 text-secondary">
                {expanded ? '▾' : '▸'}
              </span>
              <Description text={description} />
            </button>
          ) : (
            <Description text={description} />
          )}
          {trade && <TradeSummary trade={trade} />}
        </td>
        <td className="d-none d-md-table-cell">
          <Source address={action.address} />
        </td>
        <td className="text-nowrap-md">
          <time dateTime={iso} title={iso}>
            {formatDateTime(action.createdAt)}
          </time>
          <div className="d-md-none small text-secondary">
            <Source address={action.address} />
          </div>
        </td>
      </tr>
      {call && expanded && (
        <tr>
          <td colSpan={3} className="bg-body-secondary">
            <OrderCallDetails
              call={call}
              id={detailsId}
              {...(trade
                ? {
                    split: phaseSplit(trade),
                    result: {
                      result: trade.result,
                      repeat: trade.repeat,
                      checking: trade.checking,
                      status: trade.status,
                    },
                  }
                : {})}
            />
          </td>
        </tr>
      )}
    </>
  );
}
