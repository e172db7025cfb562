import { useEffect, useState } from 'react';
import { useClient } from 'urql';
import type { SignupReferrerQuery } from '../../gql/graphql.ts';
import { useDebouncedValue } from '../activity/use-debounced-value.ts';
import { SignupReferrerDocument } from './documents.ts';

export type ReferrerInfo = NonNullable<SignupReferrerQuery['signupReferrer']>;

/** What the sign-up screen knows of the code typed or brought by the link. */
export type ReferralStatus =
  | { kind: 'none' }
  | { kind: 'checking' }
  | { kind: 'found'; referrer: ReferrerInfo }
  | { kind: 'unknown' }
  | { kind: 'failed' };

export interface ReferralCode {
  code: string;
  setCode: (code: string) => void;
  status: ReferralStatus;
}

const LOOKUP_DELAY_MS = 400;

/**
 * The referral code of a sign-up (issue 15): the link's /signup/{code}, else a `code` query
 * value that is one of our campaigns (other codes there are promotion codes, SPEC §2), else
 * what the person types. Each value is looked up, so a deleted or unknown code says so at once.
 */
export function useReferralCode(routeReferrer: string | undefined, search: string): ReferralCode {
  const client = useClient();
  const [code, setCode] = useState(routeReferrer ?? '');
  const [status, setStatus] = useState<ReferralStatus>({ kind: 'none' });
  const settled = useDebouncedValue(code.trim(), code === routeReferrer ? 0 : LOOKUP_DELAY_MS);

  // A promotion-code link (?code=…) fills the field only with a campaign of ours.
  const queryCode = routeReferrer ? '' : (new URLSearchParams(search).get('code')?.trim() ?? '');
  useEffect(() => {
    if (!queryCode) return;
    let live = true;
    void client
      .query(SignupReferrerDocument, { code: queryCode }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        const found = result.data?.signupReferrer;
        if (live && found) setCode((current) => current || found.code);
      });
    return () => {
      live = false;
    };
  }, [client, queryCode]);

  useEffect(() => {
    if (!settled) {
      setStatus({ kind: 'none' });
      return;
    }
    let live = true;
    setStatus({ kind: 'checking' });
    void client
      .query(SignupReferrerDocument, { code: settled }, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        if (!live) return;
        if (result.error || result.data === undefined) setStatus({ kind: 'failed' });
        else if (result.data.signupReferrer) setStatus({ kind: 'found', referrer: result.data.signupReferrer });
        else setStatus({ kind: 'unknown' });
      });
    return () => {
      live = false;
    };
  }, [client, settled]);

  return { code, setCode, status };
}
