// The parts of Google Identity Services and Sign in with Apple JS this app calls.
export const GOOGLE_SCRIPT = 'https://accounts.google.com/gsi/client';
export const APPLE_SCRIPT = 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js';

export type SocialIssuer = 'google' | 'apple' | 'id';

export interface SocialToken {
  issuer: SocialIssuer;
  token: string;
  /** Apple sends the name to the client once, on the first sign-in. */
  metadata?: { firstName?: string; lastName?: string };
}

export interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential: string }) => void }): void;
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
    init(options: { clientId: string; scope: string; redirectURI: string; usePopup: boolean }): void;
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
 * A token handed over in the address hash (SPEC §2 Sign-in), with an optional `issuer`:
 * `#access_token=…` is a one-time sign-in token of ours (issuer "id": a partner's new account),
 * `#id_token=…` a Google ID token (an implicit-flow return).
 */
export function tokenFromHash(hash: string): SocialToken | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const idToken = params.get('id_token');
  const token = idToken || params.get('access_token');
  if (!token) return null;
  const named = ISSUERS.find((issuer) => issuer === params.get('issuer'));
  return { issuer: named ?? (idToken ? 'google' : 'id'), token };
}
