import { useQuery } from 'urql';
import { FAQ_PATH } from '../../lib/links.ts';
import { SiteDocument } from './documents.ts';

/** Where Contact Support leads: the operator's SUPPORT_EMAIL, else the FAQ's support answer. */
export function supportHref(supportEmail: string | null | undefined): string {
  return supportEmail ? `mailto:${supportEmail}` : `${FAQ_PATH}#support`;
}

/** The installation's settings the screens show (SUPPORT_EMAIL, PUBLIC_URL); null until loaded. */
export function useSite() {
  const [{ data }] = useQuery({ query: SiteDocument });
  return data?.site ?? null;
}
