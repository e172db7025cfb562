// Holdings and the order preview.
//   GET /portfolio/{accountId}/summary  {"totalcashvalue":{"amount":…,"currency":"USD"},"netliquidation":{…},"buyingpower":{…}}
//   GET /portfolio/{accountId}/positions/{page}  [{"conid":265598,"ticker":"AAPL","position":10,"avgPrice":180.1,"mktValue":1900,
//     "assetClass":"STK","contractDesc":"AAPL"}]  (options: "SPY    JAN2025 440 C [SPY   250117C00440000 100]")
//   POST /iserver/account/{accountId}/orders/whatif  {"amount":{"amount":"1,977.60 USD (10 Shares)","commission":"1 USD",
//     "total":"1,978.60 USD"},"initial":{"after":"1652",…},"warn":"21/…","error":null}
import type { OrderResponse } from '@router/orders';
import type { Holding, Holdings } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import { IBKR_TITLE } from './descriptor.ts';
import { type AccountCall, positionsOf } from './exits.ts';
import type { Ticket } from './mapper.ts';
import { accountPath } from './submit.ts';

function symbolOf(position: JsonRecord): string {
  const description = stringField(position, 'contractDesc') ?? '';
  const occ = /\[([A-Z][A-Z0-9. ]{0,5}\d{6}[CP]\d{8})\b/.exec(description)?.[1];
  if (position.assetClass === 'OPT' && occ) return occ.padEnd(21).slice(0, 21);
  if (position.assetClass === 'STK') return (stringField(position, 'ticker') ?? description).replace(/ /g, '.');
  return description || stringField(position, 'ticker') || String(position.conid ?? '');
}

export async function holdingsOf(call: AccountCall): Promise<Holdings> {
  const { api, ctx, session, accountId } = call;
  accountPath(session, accountId);
  await api.portfolioAccounts(ctx, session);
  const summary = asRecord(
    (await api.call(ctx, session, { path: `/portfolio/${encodeURIComponent(accountId)}/summary` })).body,
  );
  const amount = (key: string) => decimalField(summary?.[key], 'amount');
  const optional = (key: string, value: number | undefined) => (value === undefined ? {} : { [key]: value });
  const positions = (await positionsOf(call)).map(
    (position): Holding => ({
      symbol: symbolOf(position),
      quantity: decimalField(position, 'position') ?? 0,
      ...optional('averagePrice', decimalField(position, 'avgPrice')),
      ...optional('marketValue', decimalField(position, 'mktValue')),
    }),
  );
  return {
    ...optional('cash', amount('totalcashvalue')),
    ...optional('equity', amount('netliquidation')),
    ...optional('buyingPower', amount('buyingpower')),
    currency: stringField(summary?.netliquidation, 'currency') ?? 'USD',
    positions: positions.filter((position) => position.quantity !== 0),
  };
}

/** What-if: IBKR prices the tickets without placing them; its error (thrown by the api) is the refusal. */
export async function previewTickets(
  call: AccountCall,
  tickets: Ticket[],
  clientOrderId: string,
): Promise<OrderResponse> {
  const { api, ctx, session, accountId } = call;
  const path = `${accountPath(session, accountId)}/orders/whatif`;
  const { body } = await api.call(ctx, session, { method: 'POST', path, json: { orders: tickets }, mutating: false });
  const preview = asRecord(body);
  const amount = asRecord(preview?.amount);
  const parts = [
    stringField(amount, 'total') ?? stringField(amount, 'amount'),
    stringField(amount, 'commission') && `commission ${stringField(amount, 'commission')}`,
    stringField(preview?.initial, 'after') && `initial margin after ${stringField(preview?.initial, 'after')}`,
    stringField(preview, 'warn') && `warning: ${stringField(preview, 'warn')?.replace(/\s+/g, ' ')}`,
  ].filter(Boolean);
  return {
    id: clientOrderId,
    status: 'draft',
    status_description: `${IBKR_TITLE} preview: ${parts.join('; ') || 'accepted'}`,
  };
}
