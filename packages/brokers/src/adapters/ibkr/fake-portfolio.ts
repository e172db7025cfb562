// The protocol fake's accounts and portfolio, in IBKR's shapes (broker-specs/ibkr fixtures
// accounts.response.json and portfolio-accounts.response.json, the spec's positions and summary):
//   GET /iserver/accounts  {"accounts":["DU123456"],"isPaper":true,"selectedAccount":"DU123456",…}
//   GET /portfolio/accounts  [{"id":"DU123456","accountId":"DU123456","currency":"USD","type":"DEMO",…}]
//   GET /portfolio/{accountId}/summary  {"totalcashvalue":{"amount":…,"currency":"USD",…},…}
//   GET /portfolio/{accountId}/positions/{page}  [{"conid":265598,"position":10,"avgPrice":…,…}] (100 a page)
import type { FastifyInstance } from 'fastify';
import type { FakeLedger } from './fake-fills.ts';
import type { FakeMarket } from './fake-market.ts';

export interface PortfolioOptions {
  ledger: FakeLedger;
  market: FakeMarket;
  now: () => number;
  isPaper: boolean;
  /** Called when /iserver/accounts is read (the brokerage session must have done so). */
  onAccounts(): void;
}

const SERVER_INFO = { serverName: 'JifN19053', serverVersion: 'Build 10.25.0p, Dec 5, 2023 5:48:12 PM' };

export function registerPortfolio(app: FastifyInstance, options: PortfolioOptions): void {
  const { ledger, market } = options;
  const ids = () => [...ledger.accounts.keys()];
  const value = (amount: number) => ({
    amount,
    currency: 'USD',
    isNull: false,
    severity: 0,
    timestamp: options.now(),
    value: null,
  });

  app.get('/v1/api/iserver/accounts', async () => {
    options.onAccounts();
    const props = {
      allowCustomerTime: true,
      autoFx: false,
      hasChildAccounts: false,
      supportsCashQty: true,
      supportsFractions: true,
    };
    return {
      accounts: ids(),
      acctProps: Object.fromEntries(ids().map((id) => [id, props])),
      aliases: Object.fromEntries([['All', 'All'], ...ids().map((id) => [id, id])]),
      allowFeatures: { allowedAssetTypes: 'STK,CFD,OPT,FOP,WAR,FUT,BAG,CASH,IND,BOND' },
      groups: ['All'],
      isFT: false,
      isPaper: options.isPaper,
      profiles: [],
      selectedAccount: ids()[0],
      serverInfo: SERVER_INFO,
      sessionId: '65ee8a41.0000001e',
    };
  });

  app.get('/v1/api/portfolio/accounts', async () =>
    ids().map((id) => ({
      id,
      accountId: id,
      accountVan: id,
      accountTitle: `Fake ${id}`,
      displayName: `Fake ${id}`,
      accountAlias: null,
      currency: 'USD',
      type: id.startsWith('D') ? 'DEMO' : 'INDIVIDUAL',
      tradingType: 'STKNOPT',
      brokerageAccess: true,
      clearingStatus: 'O',
      faclient: false,
      desc: id,
    })),
  );

  app.get('/v1/api/portfolio/:accountId/summary', async (request, reply) => {
    const account = ledger.accounts.get((request.params as { accountId: string }).accountId);
    if (!account) return reply.code(500).send({ error: 'Account not found' });
    const held = [...account.positions].reduce(
      (sum, [conid, p]) => sum + p.position * (market.byConid(conid)?.price ?? 0),
      0,
    );
    return {
      accountcode: { ...value(0), currency: null, value: account.id },
      totalcashvalue: value(account.cash),
      netliquidation: value(account.cash + held),
      buyingpower: value(account.cash * 4),
      availablefunds: value(account.cash),
    };
  });

  app.get('/v1/api/portfolio/:accountId/positions/:page', async (request, reply) => {
    const { accountId, page } = request.params as { accountId: string; page: string };
    const account = ledger.accounts.get(accountId);
    if (!account) return reply.code(500).send({ error: 'Account not found' });
    const all = [...account.positions].map(([conid, held]) => {
      const contract = market.byConid(conid);
      const occ =
        contract?.secType === 'OPT'
          ? occOf(contract.symbol, contract.expiry ?? '', contract.right ?? 'C', contract.strike ?? 0)
          : '';
      return {
        acctId: accountId,
        conid,
        contractDesc: occ ? `${contract?.name} [${occ} 100]` : (contract?.symbol ?? String(conid)),
        ticker: contract?.symbol,
        assetClass: contract?.secType,
        position: held.position,
        avgPrice: held.avgPrice,
        avgCost: held.avgPrice * (contract?.multiplier ?? 1),
        mktPrice: contract?.price,
        mktValue: held.position * (contract?.price ?? 0) * (contract?.multiplier ?? 1),
        currency: contract?.currency,
        multiplier: contract?.multiplier,
        pageSize: 100,
      };
    });
    return all.slice(Number(page) * 100, Number(page) * 100 + 100);
  });
}

/** "SPY   250117C00440000": IBKR's contract description carries the OCC symbol. */
function occOf(root: string, expiry: string, right: string, strike: number): string {
  return `${root.padEnd(6)}${expiry.slice(2)}${right}${String(Math.round(strike * 1000)).padStart(8, '0')}`;
}
