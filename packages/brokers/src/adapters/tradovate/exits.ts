// close and cancel signals, and cancelOrder. Orders and positions carry contract ids, so the
// symbol is resolved first (contracts.ts).
//   close:  GET /position/list → the contract's netPos; without a quantity: POST
//           /order/liquidateposition {"accountId","contractId","admin":false} (Tradovate also cancels
//           the contract's working orders); with one: an opposite Market order (with our clOrdId).
//   cancel: GET /order/list → the contract's working orders → POST /order/cancelorder each.
//   After a part is closed, the working exits on the closing side (a bracket's, or the trader's)
//   larger than what is left are cut to it: GET /orderVersion/deps?masterid={orderId} (quantity
//   and prices live on the OrderVersion, not the Order) → POST /order/modifyorder with the same
//   terms and orderQty = what is left; none left: POST /order/cancelorder. A stop sized for the
//   whole position would otherwise, once triggered, sell contracts no longer held (open a short).
import type { Order, OrderResponse } from '@router/orders';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { cutExits } from '../../core/exits-cut.ts';
import { decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import { type Contract, parseContract, resolveContract } from './contracts.ts';
import { TRADOVATE_TITLE } from './descriptor.ts';
import { clOrdIdOf, fromPlacement } from './mapper.ts';
import type { AccountClient } from './session.ts';

const WORKING = new Set(['Working', 'PendingNew', 'PendingReplace', 'Suspended']);

const invalid = (message: string) => new BrokerError('InvalidOrder', TRADOVATE_TITLE, message);

const ofContract = (client: AccountClient, contract: Contract) => (item: Record<string, unknown>) =>
  decimalField(item, 'accountId') === client.accountId && decimalField(item, 'contractId') === contract.id;

/** POST /order/cancelorder → {"commandId"}; a refusal ({"failureReason": "TooLate"}) throws. */
export async function cancelById(client: AccountClient, orderId: string): Promise<void> {
  if (!/^\d+$/.test(orderId)) throw new BrokerError('OrderNotFound', TRADOVATE_TITLE, `order ${orderId} not found`);
  await client.call({ path: '/order/cancelorder', json: { orderId: Number(orderId), isAutomated: true } });
}

export async function cancelSymbol(client: AccountClient, symbol: string, now: number): Promise<OrderResponse> {
  const contract = await resolveContract(client, symbol, now);
  const { body } = await client.call({ path: '/order/list' });
  const ids = listOf(body)
    .filter(ofContract(client, contract))
    .filter((item) => WORKING.has(stringField(item, 'ordStatus') ?? ''))
    .map((item) => stringField(item, 'id'))
    .filter((id): id is string => id !== undefined);
  await cancelEach(ids, contract.name, (id) => cancelById(client, id));
  const description = ids.length
    ? `Canceled ${ids.length} working order(s) of ${contract.name}`
    : `No working orders of ${contract.name}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}

/**
 * The part of the held contracts a close takes (undefined: all of them), refused before any call
 * when it can never be whole contracts (Broker.checkOrder stops here).
 */
export function closePart(order: Order | undefined): ((held: number) => number) | undefined {
  if (order?.quantity === undefined) return undefined;
  const { quantity, quantity_type: type } = order;
  // Cut down to whole contracts, never up (the hair absorbs binary noise): 0 is refused by closeSymbol.
  if (type === 'percent_of_position') return (held) => Math.min(Math.floor((held * quantity) / 100 + 1e-9), held);
  if (type !== 'fixed' || !Number.isInteger(quantity) || quantity < 1)
    throw invalid('close takes whole contracts or percent_of_position');
  return (held) => Math.min(quantity, held);
}

/** Flattens the contract's position, or closes `order.quantity` of it. */
export async function closeSymbol(
  client: AccountClient,
  symbol: string,
  now: number,
  order?: Order,
  clientOrderId?: string,
): Promise<OrderResponse> {
  parseContract(symbol, now);
  const partOf = closePart(order);
  const contract = await resolveContract(client, symbol, now);
  const { body } = await client.call({ path: '/position/list' });
  const net = decimalField(listOf(body).find(ofContract(client, contract)), 'netPos') ?? 0;
  if (net === 0) throw invalid(`no open position in ${contract.name}`);
  const part = partOf?.(Math.abs(net));
  if (part !== undefined && part < 1)
    throw invalid(
      `${order?.quantity} % of the ${contract.name} position of ${Math.abs(net)} is less than one contract`,
    );
  // Liquidation takes no clOrdId: only a close without a quantity uses it.
  if (part === undefined) {
    const answer = await client.call({
      path: '/order/liquidateposition',
      json: { accountId: client.accountId, contractId: contract.id, admin: false },
    });
    const placed = fromPlacement(answer.body, '/order/liquidateposition');
    return { ...placed, status_description: `Tradovate liquidates the ${contract.name} position (${net})` };
  }
  const path = '/order/placeorder';
  const answer = await client.call({
    path,
    json: {
      accountSpec: client.account.spec,
      accountId: client.accountId,
      ...(clientOrderId ? { clOrdId: clOrdIdOf(clientOrderId) } : {}),
      action: net > 0 ? 'Sell' : 'Buy',
      symbol: contract.name,
      orderQty: part,
      orderType: 'Market',
      isAutomated: true,
    },
  });
  const placed = fromPlacement(answer.body, path);
  const closing = { ...placed, status_description: `Closing ${part} of ${Math.abs(net)} ${contract.name}` };
  return cutExitsTo(client, contract, net > 0 ? 'Sell' : 'Buy', Math.abs(net) - part, closing);
}

/** The terms of an OrderVersion that modifyorder takes again. */
const KEPT_TERMS = ['orderType', 'price', 'stopPrice', 'maxShow', 'pegDifference', 'timeInForce', 'expireTime'];

/**
 * After a partial close (`answer`): the contract's working orders on the closing side (`action`)
 * larger than the `left` still held are cut to it, or canceled when nothing is left. Exits of a
 * bracket whose entry has not filled (Suspended) close no part of what is held and are left
 * alone. The close stands whatever happens here.
 */
async function cutExitsTo(
  client: AccountClient,
  contract: Contract,
  action: 'Buy' | 'Sell',
  left: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const exits = async () => {
    const { body } = await client.call({ path: '/order/list' });
    const working = listOf(body)
      .filter(ofContract(client, contract))
      .filter((item) => stringField(item, 'action') === action && stringField(item, 'ordStatus') === 'Working');
    const sized: Array<{ id: string; version: JsonRecord }> = [];
    for (const item of working) {
      const id = stringField(item, 'id');
      // The close itself, while it works, is no exit.
      if (id === undefined || id === answer.id) continue;
      const versions = await client.call({ path: '/orderVersion/deps', query: { masterid: id } });
      const latest = (a: JsonRecord, b: JsonRecord) => (decimalField(a, 'id') ?? 0) - (decimalField(b, 'id') ?? 0);
      const version = listOf(versions.body).sort(latest).at(-1);
      if (version && (decimalField(version, 'orderQty') ?? 0) > left) sized.push({ id, version });
    }
    return sized;
  };
  const rest = left > 0 ? `the ${left} left` : 'none left';
  return cutExits(answer, rest, exits, async ({ id, version }) => {
    if (left === 0) {
      await cancelById(client, id);
      return id;
    }
    const terms = Object.fromEntries(
      KEPT_TERMS.filter((key) => version[key] != null).map((key) => [key, version[key]]),
    );
    await client.call({
      path: '/order/modifyorder',
      json: { orderId: Number(id), orderQty: left, ...terms, isAutomated: true },
    });
    return id;
  });
}
