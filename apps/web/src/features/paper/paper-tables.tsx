import type { PaperAccountFieldsFragment } from '../../gql/graphql.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import { formatNumber, formatPnl, formatUsd, pnlClass } from './format.ts';

type Account = PaperAccountFieldsFragment;

function Empty({ children }: { children: string }) {
  return <p className="text-secondary small mb-0">{children}</p>;
}

/** When, and which order: the second line of an order or a fill. */
function Stamp({ at, id }: { at: number; id: string }) {
  return (
    <span className="small text-secondary">
      {formatDateTime(at)} · <span className="font-monospace">{id}</span>
    </span>
  );
}

/** Columns hidden on a phone: the rest fits without scrolling sideways. */
const WIDE = 'd-none d-md-table-cell';

export function PositionsTable({ positions }: { positions: Account['positions'] }) {
  if (positions.length === 0)
    return <Empty>No positions. Orders placed on this account's webhooks show up here.</Empty>;
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle mb-0">
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col" className="text-end">
              Quantity
            </th>
            <th scope="col" className={`text-end ${WIDE}`}>
              Average price
            </th>
            <th scope="col" className="text-end">
              Price
            </th>
            <th scope="col" className={`text-end ${WIDE}`}>
              Market value
            </th>
            <th scope="col" className="text-end">
              P&amp;L
            </th>
          </tr>
        </thead>
        <tbody>
          {positions.map((position) => (
            <tr key={`${position.class}|${position.symbol}`}>
              <th scope="row" className="text-break">
                <span className="font-monospace">{position.symbol}</span>{' '}
                <span className="badge text-bg-light border">{position.class}</span>
              </th>
              <td className="text-end">{formatNumber(position.quantity)}</td>
              <td className={`text-end ${WIDE}`}>{formatNumber(position.averagePrice)}</td>
              <td className="text-end">{formatNumber(position.price)}</td>
              <td className={`text-end ${WIDE}`}>{formatUsd(position.marketValue)}</td>
              <td className={`text-end ${pnlClass(position.unrealizedPnl)}`}>{formatPnl(position.unrealizedPnl)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function orderPrice(order: Account['openOrders'][number]): string {
  const parts = [];
  if (order.limitPrice !== null) parts.push(`limit ${formatNumber(order.limitPrice)}`);
  if (order.stopPrice !== null) parts.push(`stop ${formatNumber(order.stopPrice)}`);
  return parts.join(', ') || 'market';
}

export function OpenOrdersTable({ orders, total }: { orders: Account['openOrders']; total: number }) {
  if (orders.length === 0) return <Empty>No open orders.</Empty>;
  return (
    <>
      <ul className="list-group list-group-flush">
        {orders.map((order) => (
          <li key={order.id} className="list-group-item px-0">
            <div className="d-flex flex-wrap justify-content-between gap-2">
              <span className="fw-semibold text-break">
                {order.action} {formatNumber(order.quantity)} <span className="font-monospace">{order.symbol}</span>
              </span>
              <span>
                {orderPrice(order)} · {order.duration}
              </span>
            </div>
            {order.legs.length > 0 && (
              <ul className="small mb-1 ps-3">
                {order.legs.map((leg) => (
                  <li key={leg.symbol}>
                    {leg.action} {formatNumber(leg.ratio)} <span className="font-monospace">{leg.symbol}</span>
                  </li>
                ))}
              </ul>
            )}
            <Stamp at={order.createdAt} id={order.id} />
          </li>
        ))}
      </ul>
      {total > orders.length && (
        <p className="small text-secondary mb-0">
          The newest {formatCount(orders.length)} of {formatCount(total)} open orders.
        </p>
      )}
    </>
  );
}

export function FillsTable({ fills }: { fills: Account['fills'] }) {
  if (fills.length === 0) return <Empty>No fills yet.</Empty>;
  return (
    <ul className="list-group list-group-flush">
      {fills.map((fill) => (
        <li key={fill.id} className="list-group-item px-0 d-flex flex-wrap justify-content-between column-gap-3">
          <span>
            <span className="fw-semibold">
              {fill.side} {formatNumber(fill.quantity)}
            </span>{' '}
            <span className="font-monospace">{fill.symbol}</span> at {formatNumber(fill.price)}
          </span>
          <Stamp at={fill.filledAt} id={fill.id} />
        </li>
      ))}
    </ul>
  );
}
