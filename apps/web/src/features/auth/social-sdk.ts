// The parts of Google Identity Services and Sign in with Apple JS this app calls.
export const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
export const APPLE_SCRIPT = 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js';

export type SocialIssuer = 'google' | 'apple' | 'id';

export interface SocialToken {
  issuer: SocialIssuer;
  token: string;
  /** Google and Apple: the value whose SHA-256 the ID token carries as its nonce (SignInNonce). */
  nonce?: string;
  /** Apple sends the name to the client once, on the first sign-in. */
  metadata?: { firstName?: string; lastName?: string };
}

export interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: {
        client_id: string;
        nonce: string;
        callback: (response: { credential: string }) => void;
      }): void;
      renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
    };
  };
}

export interface AppleSignInResponse {
  authorization: { id_token: string };
  user?: { name?: { firstName?: string; lastName?: string } };
}

export interface AppleIdApi {
  auth: {
    init(options: { clientId: string; scope: string; redirectURI: string; usePopup: boolean; nonce: string }): void;
    signIn(): Promise<AppleSignInResponse>;
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
    AppleID?: AppleIdApi;
  }
}

const ISSUERS: readonly SocialIssuer[] = ['google', 'apple', 'id'];

/**
 * Binds a Google or Apple ID token to this browser: `claim` (SHA-256 of `value`, hex) goes to the
 * provider, which puts it in the token as its nonce; `value` never leaves this page but with the
 * token to our server, which checks the two match and lets the pair sign in once. A token
 * captured elsewhere, without the value, signs nobody in.
 */
export interface SignInNonce {
  value: string;
  claim: string;
}

const hex = (bytes: ArrayBuffer | Uint8Array) =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

export async function newSignInNonce(): Promise<SignInNonce> {
  const value = hex(crypto.getRandomValues(new Uint8Array(24)));
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return { value, claim: hex(digest) };
}

/**
 * Session storage key of the nonce value kept by a sign-in that left this page for the provider
 * and returns with `#id_token=…`: only the browser that started it can complete it.
 */
export const SIGNIN_NONCE_KEY = 'signinNonce';

function takeStoredNonce(): string | undefined {
  try {
    const value = window.sessionStorage.getItem(SIGNIN_NONCE_KEY);
    window.sessionStorage.removeItem(SIGNIN_NONCE_KEY);
    return value ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token handed over in the address hash (SPEC §2 Sign-in), with an optional `issuer`:
 * `#access_token=…` is a one-time sign-in token of ours (issuer "id": a partner's new account),
 * `#id_token=…` a Google ID token (an implicit-flow return), sent with the nonce value its
 * start kept in session storage (SIGNIN_NONCE_KEY), spent here.
 */
export function tokenFromHash(hash: string): SocialToken | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const idToken = params.get('id_token');
  const token = idToken || params.get('access_token');
  if (!token) return null;
  const named = ISSUERS.find((issuer) => issuer === params.get('issuer'));
  const nonce = idToken ? takeStoredNonce() : undefined;
  return { issuer: named ?? (idToken ? 'google' : 'id'), token, ...(nonce ? { nonce } : {}) };
}
