import { Link } from 'react-router';

/** Where a paper account's own screen is. */
export const paperAccountPath = (connectorKey: string, accountId: string): string =>
  `/me/paper/${encodeURIComponent(connectorKey)}/${encodeURIComponent(accountId)}`;

/** The way from a paper connector's account on Brokers & Webhooks to its balances, positions and orders. */
export function PaperAccountLink({
  connectorKey,
  account,
}: {
  connectorKey: string;
  account: { id: string; name: string };
}) {
  return (
    <Link
      to={paperAccountPath(connectorKey, account.id)}
      className="btn btn-sm btn-outline-success"
      aria-label={`Positions & orders of ${account.name}`}
    >
      Positions &amp; orders
    </Link>
  );
}
