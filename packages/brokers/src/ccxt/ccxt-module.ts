// ccxt is large (0.5–0.7 s to import here, ~100 MB): it is loaded with the first ccxt venue's
// adapter (withCcxt), not at server start.
type CcxtModule = typeof import('ccxt');

let loading: Promise<CcxtModule> | undefined;

/** ccxt, imported once; a failed import is tried again at the next call. */
export function loadCcxt(): Promise<CcxtModule> {
  loading ??= import('ccxt').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/**
 * A ccxt venue's `load` (its folder's index.ts): the adapter's code and ccxt itself, so a loaded
 * adapter's first call does not wait for ccxt (a server's start loads both for the venues its
 * active connections use: the first signal after a restart no longer waits half a second).
 */
export function withCcxt<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([load(), loadCcxt()]))[0];
}

/** Whether `error` is (a subclass of) the ccxt error class named `name`, without importing ccxt. */
export function isCcxtError(error: unknown, name: string): boolean {
  for (let proto = error ? Object.getPrototypeOf(error) : null; proto; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === name) return true;
  }
  return false;
}

export type { CcxtModule };
