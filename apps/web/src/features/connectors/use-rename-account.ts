import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import type { ConnectorAccount } from './connector-model.ts';
import { ConnectorUpdateDocument } from './documents.ts';

/** Account rename through connectorUpdate (a JSON list of {id, name}); an empty name is never sent. */
export function useRenameAccount(connectorKey: string, onRenamed: () => void) {
  const { mutate } = useCall();
  return async (account: ConnectorAccount, name: string): Promise<string | null> => {
    const trimmed = name.trim();
    if (!trimmed) return null;
    try {
      await mutate(ConnectorUpdateDocument, {
        key: connectorKey,
        accounts: JSON.stringify([{ id: account.id, name: trimmed }]),
      });
      onRenamed();
      return null;
    } catch (failure) {
      return errorMessage(failure);
    }
  };
}
