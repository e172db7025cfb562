import { useParams } from 'react-router';
import { PaperAccountScreen } from '../../features/paper/paper-account-screen.tsx';

/** A paper account's balances, positions, open orders and fills (from Brokers & Webhooks). */
export function Component() {
  const { connectorKey = '', accountId = '' } = useParams();
  return <PaperAccountScreen key={`${connectorKey}/${accountId}`} connectorKey={connectorKey} accountId={accountId} />;
}
