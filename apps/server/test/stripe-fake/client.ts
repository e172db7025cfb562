// The official client pointed at the fake, as the server points it with STRIPE_API_URL.
import Stripe from 'stripe';
import { STRIPE_API_VERSION, stripeHost } from '../../src/modules/billing/stripe-client.ts';
import { FAKE_SECRET_KEY, type StripeFake } from './server.ts';

export function fakeClient(fake: StripeFake, key = FAKE_SECRET_KEY): Stripe {
  return new Stripe(key, {
    apiVersion: STRIPE_API_VERSION,
    ...stripeHost(fake.url),
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

/** The environment of a server using the fake (and receiving its webhooks with `webhookSecret`). */
export function stripeEnv(fake: StripeFake, webhookSecret = 'whsec_test_fake_endpoint_secret'): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_fake_0123456789',
    STRIPE_API_URL: fake.url,
  };
}
