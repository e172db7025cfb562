import { useEffect, useRef, useState } from 'react';
import { loadScript } from './load-script.ts';
import { GOOGLE_SCRIPT, newSignInNonce, type SocialToken } from './social-sdk.ts';

/** Google's own button (Google Identity Services), drawn once its script has loaded; its ID token carries our nonce. */
export function GoogleButton({ clientId, onToken }: { clientId: string; onToken: (token: SocialToken) => void }) {
  const slot = useRef<HTMLDivElement>(null);
  const callback = useRef(onToken);
  callback.current = onToken;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    Promise.all([loadScript(GOOGLE_SCRIPT), newSignInNonce()]).then(
      ([, nonce]) => {
        const google = window.google;
        if (!live || !google || !slot.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          nonce: nonce.claim,
          callback: ({ credential }) => callback.current({ issuer: 'google', token: credential, nonce: nonce.value }),
        });
        google.accounts.id.renderButton(slot.current, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          text: 'continue_with',
          width: Math.min(400, slot.current.offsetWidth || 300),
        });
      },
      (error: unknown) => {
        console.warn('Google sign-in is unavailable', error);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [clientId]);

  if (failed) return <p className="small text-secondary text-center mb-2">Google sign-in is unavailable right now.</p>;
  return <div ref={slot} className="d-flex justify-content-center mb-2" style={{ minHeight: 44 }} />;
}
