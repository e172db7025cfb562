// An account's holdings: the balance of ProtoOATraderReq (an integer × 10^moneyDigits) in the
// currency its depositAssetId names in ProtoOAAssetListReq (WIRE.md §3), and the open positions
// of ProtoOAReconcileReq with our symbol names (volume in hundredths of a unit, sells negative).
//   trader {balance: 1000000, moneyDigits: 2, depositAssetId: 1} + asset [{assetId: 1, name: "USD"}]
//   → {cash: 10000, currency: "USD"}
import type { Holdings } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import { type AccountClient, expectAnswer } from './client.ts';
import { TRADE_SIDE } from './mapper.ts';
import { reconcile } from './orders.ts';
import type { SymbolCache } from './symbols.ts';

/** The name of the asset `assetId` in a ProtoOAAssetListRes list ("USD"), when listed. */
export function assetName(assets: unknown, assetId: number | undefined): string | undefined {
  if (assetId === undefined) return undefined;
  const asset = listOf(assets).find((item) => decimalField(item, 'assetId') === assetId);
  return stringField(asset, 'name');
}

async function positionOf(client: AccountClient, symbols: SymbolCache, position: JsonRecord, now: number) {
  const trade = asRecord(position.tradeData);
  const volume = decimalField(trade, 'volume') ?? 0;
  const sign = decimalField(trade, 'tradeSide') === TRADE_SIDE.SELL ? -1 : 1;
  const averagePrice = decimalField(position, 'price');
  return {
    symbol: await symbols.nameOf(client, decimalField(trade, 'symbolId') ?? 0, now),
    quantity: (sign * volume) / 100,
    ...(averagePrice !== undefined ? { averagePrice } : {}),
  };
}

export async function holdingsOf(client: AccountClient, symbols: SymbolCache, now: number): Promise<Holdings> {
  const [traderAnswer, assetAnswer, open] = await Promise.all([
    client.call('ProtoOATraderReq', {}),
    client.call('ProtoOAAssetListReq', {}),
    reconcile(client),
  ]);
  const trader = expectAnswer(traderAnswer, 'ProtoOATraderRes').trader;
  const digits = decimalField(trader, 'moneyDigits') ?? 2;
  const balance = decimalField(trader, 'balance');
  const currency = assetName(
    expectAnswer(assetAnswer, 'ProtoOAAssetListRes').asset,
    decimalField(trader, 'depositAssetId'),
  );
  const positions = await Promise.all(open.positions.map((position) => positionOf(client, symbols, position, now)));
  return {
    ...(balance !== undefined ? { cash: balance / 10 ** digits } : {}),
    ...(currency ? { currency } : {}),
    positions,
  };
}
