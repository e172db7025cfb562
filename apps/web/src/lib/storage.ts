// SPEC §9 storage keys. Storage can throw (privacy modes, disabled cookies): treat as empty.
export const TOKEN_KEY = 'token';
export const PROXIED_USER_KEY = 'proxiedUserEmail';

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key) || null;
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string | null): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, value);
  } catch (error) {
    console.error(`Cannot write ${key} to storage`, error);
  }
}

const local = () => window.localStorage;
const session = () => window.sessionStorage;

export const readToken = (): string | null => read(local, TOKEN_KEY);
export const writeToken = (token: string | null): void => write(local, TOKEN_KEY, token);
export const readProxiedUser = (): string | null => read(session, PROXIED_USER_KEY);
export const writeProxiedUser = (email: string | null): void => write(session, PROXIED_USER_KEY, email);

// The short-lived 'identity' token of a password sign-in awaiting its second factor: per tab,
// never a full session (it only completes `signin(type: "passcode")`).
export const IDENTITY_TOKEN_KEY = 'identityToken';
export const readIdentityToken = (): string | null => read(session, IDENTITY_TOKEN_KEY);
export const writeIdentityToken = (token: string | null): void => write(session, IDENTITY_TOKEN_KEY, token);

// Account & Billing: the newest payment's time when the browser left for Stripe Checkout, so the
// return page knows when the payment it waits for has been recorded (per tab).
export const CHECKOUT_SINCE_KEY = 'checkoutSince';
export const readCheckoutSince = (): number | null => {
  const value = Number(read(session, CHECKOUT_SINCE_KEY));
  return Number.isFinite(value) && value > 0 ? value : null;
};
export const writeCheckoutSince = (since: number | null): void =>
  write(session, CHECKOUT_SINCE_KEY, since === null ? null : String(since));
