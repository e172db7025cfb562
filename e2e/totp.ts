// Codes of an authenticator app for the journeys. The server accepts each 30 s step once and a
// window of one step either side, so every call returns a code of a later step than the last,
// waiting for the clock when the next one is not accepted yet.
import { Secret, TOTP } from 'otpauth';

const PERIOD_S = 30;

export function authenticator(base32: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(base32), digits: 6, period: PERIOD_S, algorithm: 'SHA1' });
  let last = Number.NEGATIVE_INFINITY;
  return async function nextCode(): Promise<string> {
    for (;;) {
      const now = Math.floor(Date.now() / 1000 / PERIOD_S);
      const step = Math.max(now, last + 1);
      if (step <= now + 1) {
        last = step;
        return totp.generate({ timestamp: step * PERIOD_S * 1000 });
      }
      const nextBoundary = (now + 1) * PERIOD_S * 1000;
      await new Promise((resolve) => setTimeout(resolve, nextBoundary - Date.now() + 250));
    }
  };
}
