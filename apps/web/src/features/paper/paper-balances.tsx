import type { PaperAccountFieldsFragment } from '../../gql/graphql.ts';
import { formatPnl, formatUsd, pnlClass } from './format.ts';

/** Cash, equity, buying power and the result since the start (or the last reset). */
export function PaperBalances({ account }: { account: PaperAccountFieldsFragment }) {
  const result = account.equity - account.startingCash;
  const items = [
    { label: 'Equity', value: formatUsd(account.equity) },
    { label: 'Cash', value: formatUsd(account.cash) },
    { label: 'Buying power', value: formatUsd(account.buyingPower) },
    { label: 'Result', value: formatPnl(result), className: pnlClass(result) },
  ];
  return (
    <dl className="row row-cols-2 row-cols-md-4 g-2 mb-0">
      {items.map((item) => (
        <div key={item.label} className="col">
          <div className="border rounded p-2 h-100">
            <dt className="small text-secondary fw-normal">{item.label}</dt>
            <dd className={`h5 mb-0 ${item.className ?? ''}`}>{item.value}</dd>
          </div>
        </div>
      ))}
    </dl>
  );
}
