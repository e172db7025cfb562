// The fake's portfolio and audit routes (WIRE.md §3, §6): accounts, open orders (all, or one by
// ClientKey and OrderId: {"__count":0,"Data":[]} once filled or canceled), order activities with
// Saxo's filters (OrderId, ClientKey, AccountKey, FromDateTime, ToDateTime, EntryType=Last|All),
// balances and net positions.
import type { FastifyInstance } from 'fastify';
import { accountView, type FakeState, openOrderView } from './fake-state.ts';

type Json = Record<string, unknown>;
const page = (Data: Json[]) => ({ __count: Data.length, Data });

export function registerPortfolioRoutes(app: FastifyInstance, state: FakeState, prefix: string): void {
  app.get(`${prefix}/port/v1/accounts/me`, async () => ({ Data: [...state.accounts.values()].map(accountView) }));

  app.get(`${prefix}/port/v1/orders/me`, async () => page([...state.open.values()].map(openOrderView)));

  app.get(`${prefix}/port/v1/orders/:clientKey/:orderId`, async (request) => {
    const { clientKey, orderId } = request.params as { clientKey: string; orderId: string };
    const order = state.open.get(orderId);
    return page(order && order.account.ClientKey === clientKey ? [openOrderView(order)] : []);
  });

  app.get(`${prefix}/cs/v1/audit/orderactivities`, async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const from = query.FromDateTime ? Date.parse(query.FromDateTime) : -Infinity;
    const to = query.ToDateTime ? Date.parse(query.ToDateTime) : Infinity;
    const matching = state.activities.filter((activity) => {
      const at = Date.parse(String(activity.ActivityTime));
      const account = state.accounts.get(String(activity.AccountKey));
      return (
        (!query.OrderId || activity.OrderId === query.OrderId) &&
        (!query.ClientKey || account?.ClientKey === query.ClientKey) &&
        (!query.AccountKey || activity.AccountKey === query.AccountKey) &&
        at >= from &&
        at <= to
      );
    });
    if (query.EntryType !== 'Last') return { Data: matching };
    const last = new Map<unknown, Json>();
    for (const activity of matching) last.set(activity.OrderId, activity);
    return { Data: [...last.values()] };
  });

  app.get(`${prefix}/port/v1/balances`, async (request, reply) => {
    const account = state.accounts.get(String((request.query as Json).AccountKey));
    if (!account) return reply.code(404).send({ ErrorCode: 'AccountNotFound', Message: 'Account not found' });
    const held = [...account.positions.values()].reduce((sum, p) => sum + p.amount * p.instrument.price, 0);
    return {
      CashBalance: account.cash,
      Currency: account.Currency,
      MarginAvailableForTrading: account.cash,
      TotalValue: account.cash + held,
    };
  });

  app.get(`${prefix}/port/v1/netpositions`, async (request) => {
    const account = state.accounts.get(String((request.query as Json).AccountKey));
    const positions = [...(account?.positions.values() ?? [])];
    return page(
      positions.map(({ instrument, amount, price }) => ({
        NetPositionBase: {
          AccountId: account?.AccountId,
          Amount: amount,
          AssetType: instrument.AssetType,
          Uic: instrument.Identifier,
        },
        NetPositionId: `${instrument.Identifier}__${instrument.AssetType}`,
        NetPositionView: {
          AverageOpenPrice: price,
          MarketValue: amount * instrument.price,
          CalculationReliability: 'Ok',
        },
        DisplayAndFormat: {
          Symbol: instrument.Symbol,
          Description: instrument.Description,
          Currency: instrument.CurrencyCode,
        },
      })),
    );
  });
}
