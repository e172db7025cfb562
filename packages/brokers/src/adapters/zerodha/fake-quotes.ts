// LTP quotes of the Kite fake: GET /quote/ltp?i=EXCHANGE:TRADINGSYMBOL (repeatable, up to 1000),
// from the fake's instrument prices. As Kite does, an instrument it cannot name is left out of
// `data` rather than refused; no `i` at all, or too many, is an InputException.
import type { FastifyInstance } from 'fastify';
import { CASH, DERIVATIVE, instrumentOf, KiteRefusal } from './fake-book.ts';
import { kiteRefusal } from './fake-login.ts';

const MOST = 1000;

export function registerQuotes(app: FastifyInstance) {
  app.get('/quote/ltp', async (request, reply) => {
    const asked = (request.query as { i?: string | string[] }).i;
    const keys = asked === undefined ? [] : ([] as string[]).concat(asked);
    if (!keys.length || keys.length > MOST)
      return kiteRefusal(reply, 400, 'InputException', 'Invalid or missing `i` (EXCHANGE:TRADINGSYMBOL).');
    const data: Record<string, { instrument_token: number; last_price: number }> = {};
    for (const key of keys) {
      const [exchange = '', tradingsymbol = ''] = key.split(':');
      if (![...CASH, ...DERIVATIVE].includes(exchange)) continue;
      try {
        const instrument = instrumentOf(exchange, tradingsymbol);
        data[key] = { instrument_token: instrument.token, last_price: instrument.price };
      } catch (error) {
        if (!(error instanceof KiteRefusal)) throw error;
      }
    }
    return { status: 'success', data };
  });
}
