// Codes of an authenticator app for the journeys. The server accepts each 30 s step once and a
// window of one step either side, so every call returns a code of a later step than the last,
// waiting for the clock when the next one is not accepted yet. The first starts a step behind
// (unless the clock is about to move on), so three codes come at once and a fourth waits 35 s at
// most: a journey needing four waited up to two steps, 60 s of its 60 s limit.
import { Secret, TOTP } from 'otpauth';

const PERIOD_S = 30;
const SAFETY_S = 5;

export function authenticator(base32: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(base32), digits: 6, period: PERIOD_S, algorithm: 'SHA1' });
  let last = Number.NEGATIVE_INFINITY;
  return async function nextCode(): Promise<string> {
    for (;;) {
      const at = Date.now();
      const now = Math.floor(at / 1000 / PERIOD_S);
      // A step behind is accepted until the clock moves on: not in a step's last 5 s.
      const earliest = at % (PERIOD_S * 1000) < (PERIOD_S - SAFETY_S) * 1000 ? now - 1 : now;
      const step = Math.max(earliest, last + 1);
      if (step <= now + 1) {
        last = step;
        return totp.generate({ timestamp: step * PERIOD_S * 1000 });
      }
      const nextBoundary = (now + 1) * PERIOD_S * 1000;
      await new Promise((resolve) => setTimeout(resolve, nextBoundary - Date.now() + 250));
    }
  };
}
