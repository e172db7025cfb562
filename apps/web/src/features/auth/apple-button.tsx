import { useEffect, useRef, useState } from 'react';
import { loadScript } from './load-script.ts';
import { APPLE_SCRIPT, newSignInNonce, type SignInNonce, type SocialToken } from './social-sdk.ts';

/** SPEC §9: Apple success events within 1 second of each other are ignored. */
export const APPLE_DEDUPE_MS = 1000;

/** Sign in with Apple (popup; scope email and name, SPEC §7 External). */
export function AppleButton({ clientId, onToken }: { clientId: string; onToken: (token: SocialToken) => void }) {
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const lastSuccess = useRef(0);
  const nonce = useRef<SignInNonce | null>(null);

  useEffect(() => {
    let live = true;
    Promise.all([loadScript(APPLE_SCRIPT), newSignInNonce()]).then(
      ([, fresh]) => {
        if (!live || !window.AppleID) return;
        nonce.current = fresh;
        window.AppleID.auth.init({
          clientId,
          scope: 'name email',
          redirectURI: `${window.location.origin}/signin`,
          usePopup: true,
          nonce: fresh.claim,
        });
        setReady(true);
      },
      (error: unknown) => {
        console.warn('Apple sign-in is unavailable', error);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [clientId]);

  async function signIn() {
    if (!window.AppleID) return;
    try {
      const { authorization, user } = await window.AppleID.auth.signIn();
      const now = Date.now();
      if (now - lastSuccess.current < APPLE_DEDUPE_MS) return;
      lastSuccess.current = now;
      const name = user?.name;
      onToken({
        issuer: 'apple',
        token: authorization.id_token,
        ...(nonce.current ? { nonce: nonce.current.value } : {}),
        ...(name ? { metadata: name } : {}),
      });
    } catch {
      // The person closed Apple's popup: nothing to report.
    }
  }

  if (failed) return <p className="small text-secondary text-center mb-2">Apple sign-in is unavailable right now.</p>;
  return (
    <button type="button" className="btn btn-dark w-100 mb-2" disabled={!ready} onClick={() => void signIn()}>
      <span aria-hidden="true"> </span>Continue with Apple
    </button>
  );
}
