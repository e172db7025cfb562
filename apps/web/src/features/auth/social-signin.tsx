import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery } from 'urql';
import { useCall } from '../../lib/call.ts';
import { AppleButton } from './apple-button.tsx';
import { AuthProvidersDocument, SigninDocument, SignupDocument } from './documents.ts';
import { GoogleButton } from './google-button.tsx';
import { serverMessage } from './messages.ts';
import type { SignupParams } from './signup-params.ts';
import { type SocialToken, tokenFromHash } from './social-sdk.ts';
import { useCompleteSignin } from './use-complete-signin.ts';

/**
 * Google and Apple buttons, only for the providers the server has configured (their scripts
 * load only then), and the automatic sign-in of a token in the address hash (SPEC §2). On the
 * sign-up screen (`signup` given) a token sign-up with its parameters (referrer, promotion codes,
 * price) comes first, then the sign-in (SPEC §4), so a social sign-up keeps them too.
 */
export function SocialSignin({
  onError,
  fallback,
  signup,
}: {
  onError: (message: string | null) => void;
  fallback: string;
  signup?: SignupParams;
}) {
  const [{ data }] = useQuery({ query: AuthProvidersDocument });
  const { mutate } = useCall();
  const complete = useCompleteSignin();
  const location = useLocation();
  const navigate = useNavigate();
  const hashToken = useRef(tokenFromHash(location.hash));

  async function signIn({ issuer, token, metadata }: SocialToken) {
    onError(null);
    try {
      if (signup) {
        await mutate(SignupDocument, {
          type: 'token',
          credentials: { issuer, token },
          firstName: metadata?.firstName ?? null,
          lastName: metadata?.lastName ?? null,
          ...signup,
        });
      }
      const { signin } = await mutate(SigninDocument, { type: 'token', credentials: { issuer, token }, metadata });
      await complete(signin);
    } catch (error) {
      onError(serverMessage(error, fallback));
    }
  }

  useEffect(() => {
    const token = hashToken.current;
    if (!token) return;
    hashToken.current = null;
    // The token must not stay in the address bar (history, screenshots).
    void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: location.state });
    void signIn(token);
  });

  const providers = data?.authProviders;
  const google = providers?.google ? providers.googleClientId : null;
  const apple = providers?.apple ? providers.appleClientId : null;
  if (!google && !apple) return null;
  return (
    <div className="mt-4">
      <div className="d-flex align-items-center gap-2 text-secondary small mb-3">
        <hr className="flex-grow-1" />
        or
        <hr className="flex-grow-1" />
      </div>
      {google && <GoogleButton clientId={google} onToken={(token) => void signIn(token)} />}
      {apple && <AppleButton clientId={apple} onToken={(token) => void signIn(token)} />}
    </div>
  );
}
