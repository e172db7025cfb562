// ccxt is large (seconds to import): it is loaded on the first exchange call, not at server start.
type CcxtModule = typeof import('ccxt');

let loading: Promise<CcxtModule> | undefined;

export function loadCcxt(): Promise<CcxtModule> {
  loading ??= import('ccxt');
  return loading;
}

/** Whether `error` is (a subclass of) the ccxt error class named `name`, without importing ccxt. */
export function isCcxtError(error: unknown, name: string): boolean {
  for (let proto = error ? Object.getPrototypeOf(error) : null; proto; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === name) return true;
  }
  return false;
}

export type { CcxtModule };
