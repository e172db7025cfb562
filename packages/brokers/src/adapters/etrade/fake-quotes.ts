// The Market module of the E*TRADE fake: GET /v1/market/quote/{symbols}.json from the fake's own
// prices. Up to 25 symbols (50 with overrideSymbolCount=true), a documented detailFlag; a symbol
// the fake cannot read (a ticker is 1–5 letters with an optional class letter, an option six
// colon-separated parts) is answered with HTTP 200 and a Messages entry, as E*TRADE does.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { FakeRefusal } from './fake-book.ts';

type Json = Record<string, unknown>;

const DETAIL_FLAGS = ['ALL', 'FUNDAMENTAL', 'INTRADAY', 'OPTIONS', 'WEEK_52', 'MF_DETAIL'];
const TICKER = /^[A-Z]{1,5}(\.[A-Z])?$/;
const OPTION = /^([A-Z]{1,5}):(\d{4}):(\d{1,2}):(\d{1,2}):(CALL|PUT):(\d+(?:\.\d+)?)$/;

/** The product a quote symbol names, as orders carry it; undefined when it names none. */
function productOf(symbol: string): Json | undefined {
  if (TICKER.test(symbol)) return { securityType: 'EQ', symbol };
  const option = OPTION.exec(symbol);
  if (!option) return undefined;
  const [, root, year, month, day, callPut, strike] = option;
  const [expiryYear, expiryMonth, expiryDay] = [year, month, day].map(Number);
  if (!expiryMonth || expiryMonth > 12 || !expiryDay || expiryDay > 31) return undefined;
  return {
    securityType: 'OPTN',
    symbol: root,
    callPut,
    expiryYear,
    expiryMonth,
    expiryDay,
    strikePrice: Number(strike),
  };
}

export function registerQuoteRoutes(
  app: FastifyInstance,
  deps: {
    now: () => number;
    quote: (product: Json) => number;
    refuse: (reply: FastifyReply, error: unknown) => unknown;
  },
) {
  app.get('/v1/market/quote/:symbols', async (request, reply) => {
    const raw = (request.params as { symbols: string }).symbols;
    const query = request.query as Record<string, string | undefined>;
    const symbols = raw
      .replace(/\.json$/, '')
      .split(',')
      .filter(Boolean);
    const detailFlag = query.detailFlag ?? 'ALL';
    const most = query.overrideSymbolCount === 'true' ? 50 : 25;
    if (!raw.endsWith('.json') || !symbols.length || symbols.length > most || !DETAIL_FLAGS.includes(detailFlag))
      return deps.refuse(reply, new FakeRefusal(400, 1001, 'Invalid quote request'));
    const time = new Date(deps.now());
    const QuoteData: Json[] = [];
    const Message: Json[] = [];
    for (const symbol of symbols) {
      const product = productOf(symbol);
      if (!product) {
        Message.push({ description: `${symbol} is not a valid symbol`, code: 1002, type: 'WARNING' });
        continue;
      }
      const last = deps.quote(product);
      QuoteData.push({
        dateTime: time.toISOString(),
        dateTimeUTC: Math.floor(time.getTime() / 1000),
        quoteStatus: 'REALTIME',
        ahFlag: 'false',
        All: { lastTrade: last, bid: last - 0.01, ask: last + 0.01 },
        Product: { symbol: product.symbol, securityType: product.securityType },
      });
    }
    return {
      QuoteResponse: {
        ...(QuoteData.length ? { QuoteData } : {}),
        ...(Message.length ? { Messages: { Message } } : {}),
      },
    };
  });
}
