import { isStripePriceId } from '@router/shared/stripe-price';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQuery } from 'urql';
import { useCall } from '../../lib/call.ts';
import { AccountPaymentSessionDocument } from '../billing/documents.ts';
import { leaveFor } from '../billing/leave-for.ts';
import { AppleButton } from './apple-button.tsx';
import { AuthProvidersDocument, SigninDocument, SignupDocument } from './documents.ts';
import { GoogleButton } from './google-button.tsx';
import { serverMessage } from './messages.ts';
import { IDENTITY_ISSUER } from './redirects.ts';
import type { SignupParams } from './signup-params.ts';
import { type SocialToken, tokenFromHash } from './social-sdk.ts';
import { useCompleteSignin } from './use-complete-signin.ts';

/**
 * Google and Apple buttons, only for the providers the server has configured (their scripts
 * load only then), and the automatic sign-in of a token in the address hash (SPEC §2). On the
 * sign-up screen (`signup` given) a token sign-up with its parameters (referrer, promotion codes,
 * price) comes first, then the sign-in (SPEC §4), so a social sign-up keeps them too. With a
 * price, the new user goes on to pay for it: the guest checkout (/signup/checkout) is closed to
 * a signed-in user, so it is Stripe Checkout for that price, from Account & Billing (where the
 * plans are, should Checkout not open).
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
  const { mutate, query } = useCall();
  const complete = useCompleteSignin();
  const location = useLocation();
  const navigate = useNavigate();
  const hashToken = useRef(tokenFromHash(location.hash));

  async function signIn({ issuer, token, nonce, metadata }: SocialToken) {
    onError(null);
    const credentials = { issuer, token, ...(nonce ? { nonce } : {}) };
    try {
      if (signup) {
        await mutate(SignupDocument, {
          type: 'token',
          credentials,
          firstName: metadata?.firstName ?? null,
          lastName: metadata?.lastName ?? null,
          ...signup,
        });
      }
      const { signin } = await mutate(SigninDocument, { type: 'token', credentials, metadata });
      const price = signup?.stripePriceId;
      if (!isStripePriceId(price) || signin.issuer === IDENTITY_ISSUER) {
        await complete(signin);
        return;
      }
      await complete(signin, '/me/account');
      await checkout(price);
    } catch (error) {
      onError(serverMessage(error, fallback));
    }
  }

  /** Stripe Checkout for the price chosen before signing up; Account & Billing stays if it fails. */
  async function checkout(stripePriceId: string) {
    const coupon = new URLSearchParams(location.search).get('coupon');
    try {
      const { accountPaymentSession } = await query(
        AccountPaymentSessionDocument,
        { stripePriceId, ...(coupon ? { coupon } : {}) },
        { requestPolicy: 'network-only' },
      );
      leaveFor.assign(accountPaymentSession.url);
    } catch {
      // Signed in on Account & Billing, where the plans can be bought.
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
