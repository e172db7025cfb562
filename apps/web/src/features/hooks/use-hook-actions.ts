import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { HookActivateDocument, HookCreateDocument, HookDeleteDocument, HookUpdateDocument } from './documents.ts';
import type { HookItem } from './hook-model.ts';

/** Create, rename, reactivate and delete hooks of one connector; each reloads the list after. */
export function useHookActions(connectorKey: string, reload: () => void) {
  const { mutate } = useCall();

  async function create(values: { accountId: string; name?: string | undefined; isTest: boolean }) {
    try {
      await mutate(HookCreateDocument, {
        connectorKey,
        accountId: values.accountId,
        name: values.name?.trim() || null,
        isTest: values.isTest,
      });
      reload();
      return null;
    } catch (failure) {
      return errorMessage(failure);
    }
  }

  async function rename(hook: HookItem, name: string) {
    try {
      await mutate(HookUpdateDocument, { key: hook.key, name });
      reload();
      return null;
    } catch (failure) {
      return errorMessage(failure);
    }
  }

  async function activate(hook: HookItem) {
    try {
      await mutate(HookActivateDocument, { key: hook.key });
      reload();
      return null;
    } catch (failure) {
      return errorMessage(failure);
    }
  }

  /** SPEC §8: a failed delete is ignored (logged); the list refreshes either way. */
  async function remove(hook: HookItem) {
    await mutate(HookDeleteDocument, { key: hook.key }).catch((failure: unknown) =>
      console.debug('hookDelete failed', failure),
    );
    reload();
  }

  return { create, rename, activate, remove };
}
