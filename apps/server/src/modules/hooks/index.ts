// Webhooks: GraphQL services, and what the hook endpoint calls.
export { activateHook, HOOK_ACCOUNT_GONE } from './activate.ts';
export {
  createHook,
  deleteHook,
  getHook,
  HOOK_NOT_FOUND,
  type HookInput,
  hookUrl,
  listHooks,
  renameHook,
} from './manage.ts';
export { findHookForSignal, HOOK_CHANGED_CHANNEL, type HookForSignal, notifyHookChanged } from './signal.ts';
