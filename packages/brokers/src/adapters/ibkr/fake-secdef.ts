// The protocol fake's contract lookups, in IBKR's shapes (openapi.json examples):
//   GET /trsrv/stocks?symbols=IBM         {"IBM":[{"name":…,"assetClass":"STK","contracts":[{"conid":8314,"exchange":"NYSE","isUS":true}]}]}
//   GET /trsrv/futures?symbols=ES         {"ES":[{"conid":…,"expirationDate":20271217,"ltd":20261217,"symbol":"ES","underlyingConid":11004968}]}
//   GET /iserver/secdef/search?symbol=IBM [{"conid":"8314","companyHeader":…,"sections":[{"secType":"STK"},{"secType":"CFD","conid":"118239202"}]}]
//   GET /iserver/secdef/strikes?…         {"call":[…],"put":[…]}
//   GET /iserver/secdef/info?…            [{"conid":…,"maturityDate":"20271217","strike":200,"right":"C",…}]
//   GET /iserver/currency/pairs?currency=USD  {"USD":[{"symbol":"USD.SGD","conid":37928772,"ccyPair":"SGD"}]}
import type { FastifyInstance } from 'fastify';
import type { FakeContract, FakeMarket } from './fake-market.ts';

type Query = Record<string, string | undefined>;
const badRequest = (error: string) => ({ error, statusCode: 400 });

function searchResult(contract: FakeContract, market: FakeMarket, now: number) {
  const months = market.optionMonths(now).join(';');
  return {
    conid: String(contract.conid),
    companyHeader: `${contract.name} - ${contract.exchange}`,
    companyName: contract.name,
    symbol: contract.symbol,
    description: contract.exchange || null,
    restricted: null,
    fop: null,
    opt: null,
    war: null,
    sections: (contract.sections ?? [{ secType: contract.secType }]).map((section) => ({
      secType: section.secType,
      ...(section.conid ? { conid: String(section.conid), exchange: 'SMART' } : {}),
      ...(section.secType === 'OPT' ? { months, exchange: 'SMART;AMEX;CBOE;ISE;PHLX' } : {}),
    })),
    ...(contract.issuers ? { issuers: contract.issuers, bondid: 5 } : {}),
  };
}

function info(contract: FakeContract) {
  return {
    conid: contract.conid,
    symbol: contract.symbol,
    secType: contract.secType,
    exchange: 'SMART',
    listingExchange: contract.exchange,
    right: contract.right ?? '?',
    strike: contract.strike ?? 0,
    currency: contract.currency,
    maturityDate: contract.expiry ?? null,
    multiplier: String(contract.multiplier),
    companyName: contract.name,
    ticker: contract.symbol,
    validExchanges: 'SMART',
  };
}

export function registerSecDef(app: FastifyInstance, market: FakeMarket, now: () => number): void {
  const find = (predicate: (contract: FakeContract) => boolean) => market.all().filter(predicate);

  app.get('/v1/api/trsrv/stocks', async (request, reply) => {
    const { symbols } = request.query as Query;
    if (!symbols) return reply.code(400).send(badRequest('symbols required'));
    const answer: Record<string, unknown> = {};
    for (const symbol of symbols.split(',')) {
      const stocks = find((c) => c.secType === 'STK' && c.symbol === symbol);
      if (stocks.length === 0) continue;
      answer[symbol] = [
        {
          name: stocks[0]?.name,
          chineseName: null,
          assetClass: 'STK',
          contracts: stocks.map((c) => ({ conid: c.conid, exchange: c.exchange, isUS: c.isUS })),
        },
      ];
    }
    return answer;
  });

  app.get('/v1/api/trsrv/futures', async (request) => {
    const { symbols = '' } = request.query as Query;
    const answer: Record<string, unknown> = {};
    for (const symbol of symbols.split(',')) {
      const listed = find((c) => c.secType === 'FUT' && c.symbol === symbol);
      if (listed.length === 0) continue;
      answer[symbol] = listed.map((c) => {
        const day = Number(c.expiry);
        const ltd = Number(c.expiry) - 1;
        return {
          conid: c.conid,
          expirationDate: day,
          ltd,
          longFuturesCutOff: ltd,
          shortFuturesCutOff: ltd,
          symbol,
          underlyingConid: c.underlying,
        };
      });
    }
    return answer;
  });

  app.get('/v1/api/iserver/secdef/search', async (request) => {
    const { symbol = '', secType = 'STK' } = request.query as Query;
    const wanted = symbol.toUpperCase();
    const types: FakeContract['secType'][] =
      secType === 'BOND' ? ['BOND'] : secType === 'IND' ? ['IND'] : ['STK', 'CFD', 'WAR'];
    const matches = find((c) => c.symbol === wanted && types.includes(c.secType));
    // A stock's own CFD is a section of the stock, not a result of its own.
    const results = matches.filter((c) => c.secType !== 'CFD' || !matches.some((other) => other.secType === 'STK'));
    return results.sort((a, b) => Number(b.isUS) - Number(a.isUS)).map((c) => searchResult(c, market, now()));
  });

  app.get('/v1/api/iserver/secdef/strikes', async (request, reply) => {
    const { conid, sectype, month } = request.query as Query;
    const underlying = market.byConid(Number(conid));
    if (!underlying || !conid || !month || !['OPT', 'FOP', 'WAR'].includes(sectype ?? ''))
      return reply.code(400).send(badRequest('conid, sectype and month required'));
    const strikes = market.optionMonths(now()).includes(month) ? market.strikes(underlying) : [];
    return { call: strikes, put: strikes };
  });

  app.get('/v1/api/iserver/secdef/info', async (request, reply) => {
    const { conid, sectype, month = '', strike, right } = request.query as Query;
    const contract = market.byConid(Number(conid));
    if (!contract) return reply.code(400).send(badRequest(`no contract ${conid}`));
    if (sectype === 'FUT') {
      return find((c) => c.secType === 'FUT' && c.underlying === contract.conid && c.month === month).map(info);
    }
    if (sectype === 'OPT') {
      if (!month || strike === undefined || (right !== 'C' && right !== 'P'))
        return reply.code(400).send(badRequest('month, strike and right required'));
      const listed = market.strikes(contract).includes(Number(strike)) && market.optionMonths(now()).includes(month);
      return listed ? market.options(contract, month, Number(strike), right).map(info) : [];
    }
    return info(contract);
  });

  app.get('/v1/api/iserver/currency/pairs', async (request, reply) => {
    const { currency } = request.query as Query;
    if (!currency) return reply.code(400).send(badRequest('currency required'));
    const pairs = find((c) => c.secType === 'CASH' && c.symbol.split('.').includes(currency));
    return {
      [currency]: pairs.map((c) => ({
        symbol: c.symbol,
        conid: c.conid,
        ccyPair: c.symbol.split('.').find((side) => side !== currency),
      })),
    };
  });
}
