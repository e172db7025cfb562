// Option and future contract ids (WIRE.md §4, IBKR's option chain steps):
//   option  GET /iserver/secdef/search?symbol=AAPL (an underlying with an OPT section; IND for index options)
//           GET /iserver/secdef/strikes?conid=265598&sectype=OPT&month=DEC26   {"call":[195,200],"put":[…]}
//           GET /iserver/secdef/info?conid=265598&sectype=OPT&month=DEC26&strike=200&right=C
//             [{"conid":…,"maturityDate":"20271217","currency":"USD",…}]  (one per expiry of the month)
//   future  GET /trsrv/futures?symbols=ES   {"ES":[{"conid":…,"expirationDate":20271217,"underlyingConid":11004968}]}
//           ES1! is the first contract not yet expired; ESZ2026 is asked by its contract month
//           (GET /iserver/secdef/info?conid=<underlying>&sectype=FUT&month=DEC26), since an
//           expiry date does not tell the contract month (crude oil expires the month before).
import { futureTickOf, type SymbolParts } from '@router/orders';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { conidOf, type Instrument, notFound } from './instrument.ts';

export type SecDefCall = (path: string, query: Record<string, string>) => Promise<unknown>;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** IBKR's contract month: DEC26. */
const monthCode = (year: number, month: number) => `${MONTHS[month - 1]}${String(year % 100).padStart(2, '0')}`;
const FUTURE_LISTS_TTL_MS = 6 * 60 * 60_000;

async function underlying(get: SecDefCall, root: string) {
  for (const secType of ['STK', 'IND']) {
    const results = listOf(await get('/iserver/secdef/search', { symbol: root, secType }));
    const found = results.find((result) => listOf(result.sections).some((section) => section.secType === 'OPT'));
    if (found) return found;
  }
  throw notFound(`no options on ${root} found`);
}

type OptionParts = Extract<SymbolParts, { kind: 'option' }>;

export async function resolveOption(get: SecDefCall, parts: OptionParts): Promise<Instrument> {
  const { root, expiry, right, strike } = parts;
  const [year = 0, month = 0] = expiry.split('-').map(Number);
  const month3 = monthCode(year, month);
  const found = await underlying(get, root);
  const conid = stringField(found, 'conid') ?? '';
  const months = listOf(found.sections).find((section) => section.secType === 'OPT')?.months;
  if (typeof months === 'string' && months && !months.split(';').includes(month3))
    throw notFound(`no ${root} options expire in ${month3}`);
  const strikes = asRecord(await get('/iserver/secdef/strikes', { conid, sectype: 'OPT', month: month3 }));
  const listed = (right === 'C' ? strikes?.call : strikes?.put) as unknown;
  const name = `${root} ${right === 'C' ? 'call' : 'put'} ${strike}`;
  if (!Array.isArray(listed) || !listed.some((value) => Math.abs(Number(value) - strike) < 1e-6))
    throw notFound(`no ${name} in ${month3}`);
  const query = { conid, sectype: 'OPT', month: month3, strike: String(strike), right };
  const wanted = expiry.replace(/-/g, '');
  const contract = listOf(await get('/iserver/secdef/info', query)).find(
    (item) => stringField(item, 'maturityDate') === wanted,
  );
  const optionConid = conidOf(contract?.conid);
  if (optionConid === undefined) throw notFound(`no ${name} expiring ${expiry}`);
  const currency = stringField(contract, 'currency');
  return { conid: optionConid, secType: 'OPT', ...(currency ? { currency } : {}) };
}

/** A root's futures, asked again after some hours (new contracts are listed as old ones expire). */
export type FutureLists = Map<string, { at: number; contracts: ReturnType<typeof listOf> }>;

interface FutureContext {
  now: number;
  lists: FutureLists;
  baseUrl: string;
}

async function futuresOf(get: SecDefCall, root: string, { now, lists, baseUrl }: FutureContext) {
  const key = `${baseUrl}|${root}`;
  const cached = lists.get(key);
  if (cached && now - cached.at < FUTURE_LISTS_TTL_MS) return cached.contracts;
  const contracts = listOf(asRecord(await get('/trsrv/futures', { symbols: root }))?.[root]);
  if (contracts.length === 0) throw notFound(`no ${root} futures found`);
  lists.set(key, { at: now, contracts });
  return contracts;
}

/** yyyymmdd of a time, the form of IBKR's expirationDate. */
const dayNumber = (time: number) => {
  const date = new Date(time);
  return date.getUTCFullYear() * 10_000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
};

/** The tick of a futures root where it is known, for the ticket's prices (mapper.ts onTick). */
const rootTick = (root: string) => {
  const tick = futureTickOf(root);
  return tick !== undefined ? { tick } : {};
};

export async function resolveFuture(get: SecDefCall, parts: SymbolParts, context: FutureContext): Promise<Instrument> {
  if (parts.kind !== 'future' && parts.kind !== 'continuous_future') throw notFound('not a futures symbol');
  const { now } = context;
  const contracts = await futuresOf(get, parts.root, context);
  if (parts.kind === 'continuous_future') {
    const open = contracts
      .filter((item) => (decimalField(item, 'expirationDate') ?? 0) >= dayNumber(now))
      .sort((a, b) => (decimalField(a, 'expirationDate') ?? 0) - (decimalField(b, 'expirationDate') ?? 0));
    const conid = conidOf(open[parts.position - 1]?.conid);
    if (conid === undefined) throw notFound(`no ${parts.root} future number ${parts.position}`);
    return { conid, secType: 'FUT', ...rootTick(parts.root) };
  }
  const month = monthCode(parts.year, parts.month);
  const underlyingConid = stringField(contracts[0], 'underlyingConid') ?? '';
  const listed = new Set(contracts.map((item) => conidOf(item.conid)));
  const answer = await get('/iserver/secdef/info', { conid: underlyingConid, sectype: 'FUT', month });
  const conid = conidOf(listOf(answer).find((item) => listed.has(conidOf(item.conid)))?.conid);
  if (conid === undefined) throw notFound(`no ${parts.root} future for ${month}`);
  return { conid, secType: 'FUT', ...rootTick(parts.root) };
}
