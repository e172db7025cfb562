// Webhooks: GraphQL services, and what a signal needs of its hook (the entry, its cache).
export { HookCache } from './hook-cache.ts';
export { findHookForSignal, type HookEntry, loadHookEntry } from './hook-entry.ts';
export { type HookListener, listenHookChanges } from './hook-listener.ts';
export { pauseHooks, resumeHooks } from './kill-switch.ts';
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
