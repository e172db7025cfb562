// Card payments (issue 14): wording the server and the web app share, the professional
// application of /me/account/upgrade (SPEC §2, §5) and how a payment is labelled.
import { z } from 'zod';
import { MESSAGES } from './auth.ts';

/** SPEC §3 Account and product type: BASE 1 (one-time credits), RECURRING 3 (a plan runs). */
export const ACCOUNT_TYPE = { BASE: 1, RECURRING: 3 } as const;

/** Without STRIPE_SECRET_KEY: what billing screens and accountPaymentSession say. */
export const CARD_PAYMENTS_OFF =
  'Card payments are not configured on this server: credits are granted by an administrator.';

export { isStripePriceId } from './stripe-price.ts';

/** SPEC §2 Professional application: the business fields, in the form's order. */
export const BUSINESS_FIELDS = [
  { name: 'businessName', label: 'Business name' },
  { name: 'businessWebsite', label: 'Business website' },
  { name: 'businessAddress', label: 'Business address' },
  { name: 'businessDescription', label: 'What your business does' },
  { name: 'businessContact', label: 'Contact person (name, email or phone)' },
] as const;

/**
 * The yes/no questions legal.a to legal.l (SPEC names them, not their text): the usual
 * questionnaire separating professional from private users of market data and order routing.
 */
export const LEGAL_QUESTIONS = {
  a: 'Are you registered or qualified with the SEC, the CFTC, a state securities agency, an exchange or a self-regulatory organization?',
  b: 'Are you an investment adviser, or employed by one?',
  c: 'Are you employed by a bank, broker-dealer or other financial institution?',
  d: 'Will you use the service for a company, partnership, trust or association rather than for yourself?',
  e: 'Do you trade or manage money on behalf of other people?',
  f: 'Are you paid for trading or for managing assets of others?',
  g: 'Do you pass trading signals or market data on to third parties?',
  h: 'Will your applications place orders for users other than yourself?',
  i: 'Are you a member of, or associated with, an exchange or FINRA?',
  j: 'Do you publish trading software or strategies that other people run?',
  k: 'Has a regulator ever restricted or suspended your trading or advisory activity?',
  l: 'Do you agree to keep client secrets confidential and to answer for the orders your applications send?',
} as const;
export type LegalQuestion = keyof typeof LEGAL_QUESTIONS;

const required = z
  .string({ error: MESSAGES.required })
  .trim()
  .min(1, MESSAGES.required)
  .max(500, 'At most 500 characters');
const answer = z.enum(['yes', 'no'], { error: MESSAGES.required });

/** SPEC §5: all business fields and legal.a to legal.l required ('Required'). */
export const professionalApplicationSchema = z.object({
  businessName: required,
  businessWebsite: required,
  businessAddress: required,
  businessDescription: z
    .string({ error: MESSAGES.required })
    .trim()
    .min(1, MESSAGES.required)
    .max(2000, 'At most 2000 characters'),
  businessContact: required,
  legal: z.object(
    Object.fromEntries(Object.keys(LEGAL_QUESTIONS).map((key) => [key, answer])) as Record<
      LegalQuestion,
      typeof answer
    >,
    { error: MESSAGES.required },
  ),
});
export type ProfessionalApplication = z.output<typeof professionalApplicationSchema>;

/** SPEC §2 'per month': a plan payment is labelled with its billing interval; a one-time one is not. */
export function paymentPeriodLabel(interval: string | null | undefined): string | null {
  return interval ? `per ${interval}` : null;
}
