// Finding an order again (WIRE.md §5): no request takes a user_tag or a basket_id, so the open
// orders (320) and the order history of the dates asked (324, dates from 318) are replayed as
// snapshot notifications and searched, as async_rithmic's get_order does. A date Rithmic no
// longer keeps cannot prove anything: the window is then not listed (null). The history dates may
// not list the day in progress yet, and 320 replays open orders only: today and yesterday are
// always asked (324), or an order filled today would read as never placed; Rithmic refusing one of
// those unlisted days (a code other than "7 no data") leaves the window unknown, not an error to
// ask again every pass; so does a refusal of the history dates themselves (318) for any older day.
import type { OrderResponse } from '@router/orders';
import { isBrokerError } from '../../core/errors.ts';
import { laterState, responseOf, statusOf } from './mapper.ts';
import { accountFields, type Plant } from './plant.ts';
import type { RithmicFields } from './protocol.ts';

const CHICAGO = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago', dateStyle: 'short' });
const compact = (iso: string) => iso.replaceAll('-', '');
const DAY_MS = 24 * 60 * 60_000;

/** YYYYMMDD of an instant in UTC and in Chicago (Rithmic's trade dates follow CME's day). */
export function datesOf(at: number): string[] {
  const utc = compact(new Date(at).toISOString().slice(0, 10));
  const chicago = compact(CHICAGO.format(at));
  return [...new Set([chicago, utc])].sort();
}

/** Today and yesterday, in either calendar: asked whether or not the history dates list them. */
const recentDates = (now: number) => new Set([...datesOf(now), ...datesOf(now - DAY_MS)]);

/** Every order's latest state from replayed notifications, by basket_id. */
function byBasket(snapshots: RithmicFields[]): Map<string, RithmicFields> {
  const orders = new Map<string, RithmicFields>();
  for (const snapshot of snapshots) {
    const id = typeof snapshot.basket_id === 'string' ? snapshot.basket_id : '';
    if (id) orders.set(id, laterState(orders.get(id), snapshot));
  }
  return orders;
}

/** Kinds of a refusal that are about the request itself, not the session, the link or a limit. */
const REFUSED: ReadonlySet<string> = new Set(['InvalidOrder', 'OrderNotFound']);
const refusedAsAsked = (error: unknown) => isBrokerError(error) && REFUSED.has(error.kind) && !error.outcomeUnknown;

async function openOrders(plant: Plant, accountId: string): Promise<RithmicFields[]> {
  const { snapshots } = await plant.connection.request(
    { template_id: 320, ...accountFields(plant, accountId) },
    { snapshots: true },
  );
  return snapshots;
}

/**
 * The dates Rithmic keeps history of; null when it refuses the request itself (a code other than
 * "7 no data"): which days it keeps is then unknown (asked again, it would refuse again).
 */
async function historyDates(plant: Plant): Promise<string[] | null> {
  try {
    const { parts, last } = await plant.connection.request({ template_id: 318 }, { snapshots: true });
    return [...parts, last].flatMap((part) => (Array.isArray(part.date) ? part.date.map(String) : []));
  } catch (error) {
    if (refusedAsAsked(error)) return null;
    throw error;
  }
}

async function history(plant: Plant, accountId: string, date: string): Promise<RithmicFields[]> {
  const { snapshots } = await plant.connection.request(
    { template_id: 324, ...accountFields(plant, accountId), date },
    { snapshots: true },
  );
  return snapshots;
}

/**
 * A date's history; null when Rithmic refuses a date its history dates did not list (with a code
 * other than "7 no data", which reads as empty): it keeps no history it can show for that day, so
 * nothing about that day can be proven (asked again, it would refuse again). A listed date's
 * refusal, and any failure of the link, throw as they are.
 */
async function unlistedHistory(plant: Plant, accountId: string, date: string): Promise<RithmicFields[] | null> {
  try {
    return await history(plant, accountId, date);
  } catch (error) {
    if (refusedAsAsked(error)) return null;
    throw error;
  }
}

/** The history of `date`, through unlistedHistory when the history dates (`kept`) did not list it. */
const historyOf = (plant: Plant, accountId: string, date: string, kept: readonly string[]) =>
  kept.includes(date) ? history(plant, accountId, date) : unlistedHistory(plant, accountId, date);

/**
 * The account's orders of the dates `from..to` covers (open ones included); null when one of
 * those dates is older than the history Rithmic keeps.
 */
export async function ordersBetween(
  plant: Plant,
  accountId: string,
  from: number,
  to: number,
  now: number,
): Promise<RithmicFields[] | null> {
  const wanted = [...new Set([...datesOf(from), ...datesOf(to)])].sort();
  // A date not listed is either before the history (unknown) or a day without orders. Today and
  // yesterday, in either calendar, are always kept and asked: from midnight UTC until Chicago's
  // midnight the two dates differ, and a window opened a minute before a midnight reaches into
  // the day before, which may have had no orders.
  const recent = recentDates(now);
  const listed = await historyDates(plant);
  // Without the history dates only today and yesterday can be asked (refused, they are unknown).
  if (!listed && wanted.some((date) => !recent.has(date))) return null;
  const kept = listed ?? [];
  const oldestKept = [...kept].sort()[0] ?? datesOf(now)[0] ?? '';
  if (wanted.some((date) => !recent.has(date) && date < oldestKept && !kept.includes(date))) return null;
  const snapshots = await openOrders(plant, accountId);
  for (const date of wanted.filter((item) => kept.includes(item) || recent.has(item))) {
    const day = await historyOf(plant, accountId, date, kept);
    if (!day) return null;
    snapshots.push(...day);
  }
  return [...byBasket(snapshots).values()];
}

/** The order with this basket_id among the open ones, today's and yesterday's, and the last `days` dates of history. */
export async function orderByBasket(
  plant: Plant,
  accountId: string,
  basketId: string,
  now: number,
  days = 3,
): Promise<OrderResponse | null> {
  const snapshots = await openOrders(plant, accountId);
  const kept = ((await historyDates(plant)) ?? []).sort().slice(-days);
  // A refused day is skipped: not finding the order then proves nothing, and findOrder says so.
  for (const date of new Set([...kept, ...recentDates(now)]))
    snapshots.push(...((await historyOf(plant, accountId, date, kept)) ?? []));
  const found = byBasket(snapshots).get(basketId);
  return found ? responseOf(found) : null;
}

/** The basket_id of the open order carrying this user_tag, if one is open. */
export async function openOrderTagged(plant: Plant, accountId: string, userTag: string): Promise<string | undefined> {
  const open = [...byBasket(await openOrders(plant, accountId)).values()];
  const found = open.find((order) => order.user_tag === userTag && statusOf(order) === 'accepted');
  return typeof found?.basket_id === 'string' ? found.basket_id : undefined;
}
