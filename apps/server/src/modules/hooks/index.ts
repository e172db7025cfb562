// Webhooks: GraphQL services, and what a signal needs of its hook (the entry, its cache).
export { activateHook, HOOK_ACCOUNT_GONE } from './activate.ts';
export { getHookHealth, type HookHealth } from './health.ts';
export { HookCache, keepHookCache } from './hook-cache.ts';
export { findHookForSignal, type HookEntry, loadHookEntry, toHookEntry } from './hook-entry.ts';
export { type HookListener, listenHookChanges } from './hook-listener.ts';
export { type Everyone, pauseHooks, resumeHooks } from './kill-switch.ts';
export {
  createHook,
  deleteHook,
  getHook,
  HOOK_NOT_FOUND,
  type HookInput,
  type HookUpdate,
  hookUrl,
  listHooks,
  updateHook,
} from './manage.ts';
