// Billing wording shared by the banner and Account & Billing (not in SPEC; ours).

/** How credits come without card payments (no STRIPE_SECRET_KEY). */
export const GRANTED_BY_ADMIN =
  'Card payments are not configured on this server: credits are granted by an administrator.';

/** Signals left with SIGNAL_CREDITS=unlimited. */
export const UNLIMITED = 'Unlimited';
