// Stripe.js comes from js.stripe.com (Stripe requires it be loaded from there). `@stripe/stripe-js/pure`
// loads it only when the card form asks; a page that cannot reach Stripe (offline, a blocker, a
// test environment) gets null after a bounded wait instead of a form that never appears.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';

const LOAD_TIMEOUT_MS = 15_000;

export const stripeJs = {
  /** Stripe.js for this publishable key, or null when it cannot be loaded. */
  async load(publishableKey: string): Promise<Stripe | null> {
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), LOAD_TIMEOUT_MS));
    try {
      return await Promise.race([loadStripe(publishableKey), timeout]);
    } catch (error) {
      console.warn('Stripe.js did not load', error);
      return null;
    }
  },
};
