// A webhook's risk controls (docs/RISK-CONTROLS.md): settings, their compiled form, the checks the
// signal path runs, and the shared per-hook counts.
export { checkOrder, checkSource, checkWindow, lotsAt, prepareBody, type RuleRefusal } from './check.ts';
export { type CompiledRules, compileRules } from './compile.ts';
export { isRefusal, type TakenCount, takeCount } from './counts.ts';
export { type HookRules, hookRulesSchema, parseHookRules } from './settings.ts';
