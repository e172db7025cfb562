// The protocol fake's instruments: what IBKR's contract lookups find (contract ids of the real
// ones where broker-specs names them: AAPL 265598, SPY 756733, IBM 8314 and its CFD 118239202,
// the USD spread 28812380), futures listed from now on, option chains made on demand (strikes
// every 5 around the price, an expiry every Friday), and a price for each contract.
export type FakeSecType = 'STK' | 'IND' | 'OPT' | 'FUT' | 'CASH' | 'CFD' | 'BOND' | 'WAR';

export interface FakeContract {
  conid: number;
  secType: FakeSecType;
  symbol: string;
  name: string;
  currency: string;
  price: number;
  /** Contract value of one unit of price (options 100, ES 50); bonds are priced per 100 of face. */
  multiplier: number;
  exchange: string;
  isUS: boolean;
  /** Sections of the symbol search: other types listed on it, with a contract id where they have one. */
  sections?: Array<{ secType: FakeSecType; conid?: number }>;
  /** Options and futures. */
  underlying?: number;
  /** yyyymmdd. */
  expiry?: string;
  strike?: number;
  right?: 'C' | 'P';
  /** Futures: the contract month, MMMYY. */
  month?: string;
  issuers?: Array<{ id: string; name: string }>;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
export const monthCode = (date: Date) =>
  `${MONTHS[date.getUTCMonth()]}${String(date.getUTCFullYear() % 100).padStart(2, '0')}`;
const ymd = (date: Date) => date.toISOString().slice(0, 10).replace(/-/g, '');

function stock(
  conid: number,
  symbol: string,
  name: string,
  price: number,
  extra: Partial<FakeContract> = {},
): FakeContract {
  return {
    conid,
    secType: 'STK',
    symbol,
    name,
    currency: 'USD',
    price,
    multiplier: 1,
    exchange: 'NASDAQ',
    isUS: true,
    ...extra,
  };
}

function baseContracts(): FakeContract[] {
  const withOptions: FakeContract['sections'] = [{ secType: 'STK' }, { secType: 'OPT' }];
  return [
    stock(265598, 'AAPL', 'APPLE INC', 190, { sections: [...withOptions, { secType: 'CFD', conid: 124225592 }] }),
    stock(756733, 'SPY', 'SPDR S&P 500 ETF TRUST', 500, { exchange: 'ARCA', sections: withOptions }),
    stock(8314, 'IBM', 'INTL BUSINESS MACHINES CORP', 180, {
      exchange: 'NYSE',
      sections: [...withOptions, { secType: 'WAR' }, { secType: 'CFD', conid: 118239202 }],
    }),
    stock(41645598, 'IBM', 'INTL BUSINESS MACHINES CORP', 180, { exchange: 'LSE', isUS: false }),
    stock(272093, 'MSFT', 'MICROSOFT CORP', 420, { sections: withOptions }),
    stock(4815747, 'NVDA', 'NVIDIA CORP', 140, { sections: withOptions }),
    stock(72063691, 'BRK B', 'BERKSHIRE HATHAWAY INC-CL B', 450, { exchange: 'NYSE' }),
    {
      ...stock(416904, 'SPX', 'S&P 500 Stock Index', 6000, { exchange: 'CBOE' }),
      secType: 'IND',
      sections: [{ secType: 'IND' }, { secType: 'OPT' }],
    },
    { ...stock(124225592, 'AAPL', 'APPLE INC CFD', 190, { exchange: 'SMART' }), secType: 'CFD' },
    { ...stock(118239202, 'IBM', 'INTL BUSINESS MACHINES CFD', 180, { exchange: 'SMART' }), secType: 'CFD' },
    ...[
      ['IBUS500', 230949979, 6000],
      ['IBUS30', 230949984, 44000],
      ['IBUST100', 230949985, 21000],
      ['IBDE40', 230949980, 19500],
      ['IBGB100', 230949981, 8300],
      ['IBHK50', 230949986, 19500],
      ['IBEU50', 230949987, 5000],
      ['EUR.USD', 143916318, 1.08],
    ].map(([symbol, conid, price]) => ({
      ...stock(Number(conid), String(symbol), `${symbol} CFD`, Number(price), { exchange: 'SMART', isUS: false }),
      secType: 'CFD' as const,
      sections: [{ secType: 'CFD' as const }],
    })),
    ...[
      ['EUR.USD', 12087792, 1.08],
      ['GBP.USD', 12087797, 1.27],
      ['USD.JPY', 15016059, 150],
      ['USD.CAD', 15016062, 1.36],
      ['GBP.JPY', 14321015, 190],
      ['AUD.CAD', 15016138, 0.9],
      ['USD.SGD', 37928772, 1.34],
    ].map(([symbol, conid, price]) => ({
      ...stock(Number(conid), String(symbol), String(symbol), Number(price), { exchange: 'IDEALPRO', isUS: false }),
      secType: 'CASH' as const,
      currency: String(symbol).slice(4),
    })),
    {
      ...stock(296712451, '912828YK0', 'United States Treasury T 1 3/8 10/15/22', 99.5, { exchange: 'SMART' }),
      secType: 'BOND',
      sections: [{ secType: 'BOND' }],
    },
    {
      ...stock(296712451, 'US912828YK04', 'United States Treasury T 1 3/8 10/15/22', 99.5, { exchange: 'SMART' }),
      secType: 'BOND',
      sections: [{ secType: 'BOND' }],
    },
    {
      ...stock(2147483647, 'IBM', 'Corporate Fixed Income', 0, { exchange: '' }),
      secType: 'BOND',
      sections: [{ secType: 'BOND' }],
      issuers: [{ id: 'e1400789', name: 'International Business Machines Corp' }],
    },
    {
      ...stock(446531010, 'IPOF WS', 'SOCIAL CAPITAL IPOF WARRANTS', 1.2, { exchange: 'NYSE' }),
      secType: 'WAR',
      sections: [{ secType: 'WAR' }],
    },
    {
      ...stock(459201911, 'TSLA WT', 'TSLA TURBO WARRANT', 0.8, { exchange: 'FWB', isUS: false }),
      secType: 'WAR',
      sections: [{ secType: 'WAR' }],
    },
  ];
}

/** Futures roots: underlying conid, price, multiplier, listed months and the expiry's month offset. */
const FUTURES: Record<
  string,
  { underlying: number; price: number; multiplier: number; months: number[]; expiresEarly: boolean }
> = {
  ES: { underlying: 11004968, price: 6000, multiplier: 50, months: [2, 5, 8, 11], expiresEarly: false },
  NQ: { underlying: 11004958, price: 21000, multiplier: 20, months: [2, 5, 8, 11], expiresEarly: false },
  // Crude oil expires around the 20th of the month before its contract month.
  CL: { underlying: 17340715, price: 70, multiplier: 1000, months: [...Array(12).keys()], expiresEarly: true },
};

function thirdFriday(year: number, month: number): Date {
  const first = new Date(Date.UTC(year, month, 1));
  return new Date(Date.UTC(year, month, 1 + ((5 - first.getUTCDay() + 7) % 7) + 14));
}

/** Four years of each root's contracts from this month on, expired ones left out as IBKR lists them. */
function futures(now: number): FakeContract[] {
  const today = ymd(new Date(now));
  const start = new Date(now);
  const contracts: FakeContract[] = [];
  for (const [root, spec] of Object.entries(FUTURES)) {
    for (let offset = -1; offset < 48; offset++) {
      const month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + offset, 1));
      if (!spec.months.includes(month.getUTCMonth())) continue;
      const expiry = spec.expiresEarly
        ? new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - 1, 20))
        : thirdFriday(month.getUTCFullYear(), month.getUTCMonth());
      if (ymd(expiry) < today) continue;
      const conid =
        495_000_000 + (spec.underlying % 1000) * 1000 + (month.getUTCFullYear() % 100) * 12 + month.getUTCMonth();
      contracts.push({
        conid,
        secType: 'FUT',
        symbol: root,
        name: `${root} ${monthCode(month)}`,
        currency: 'USD',
        price: spec.price,
        multiplier: spec.multiplier,
        exchange: root === 'CL' ? 'NYMEX' : 'CME',
        isUS: true,
        underlying: spec.underlying,
        expiry: ymd(expiry),
        month: monthCode(month),
      });
    }
  }
  return contracts;
}

export interface FakeMarket {
  all(): FakeContract[];
  byConid(conid: number): FakeContract | undefined;
  /** Every Friday of the month at each listed strike; registered so orders may name them. */
  options(underlying: FakeContract, month: string, strike?: number, right?: 'C' | 'P'): FakeContract[];
  strikes(underlying: FakeContract): number[];
  optionMonths(now: number): string[];
  futureRoots(): typeof FUTURES;
}

export function createFakeMarket(now: () => number): FakeMarket {
  const underlyings = Object.entries(FUTURES).map(([root, spec]) => ({
    ...stock(spec.underlying, root, `${root} underlying`, spec.price, { exchange: 'CME' }),
    secType: 'IND' as const,
  }));
  const listed = [...baseContracts(), ...underlyings, ...futures(now())];
  const contracts = new Map<number, FakeContract>();
  for (const contract of listed) if (!contracts.has(contract.conid)) contracts.set(contract.conid, contract);

  return {
    all: () => listed,
    byConid: (conid) => contracts.get(conid),
    strikes(underlying) {
      const strikes: number[] = [];
      for (let strike = Math.ceil(underlying.price / 10) * 5; strike <= underlying.price * 1.5; strike += 5)
        strikes.push(strike);
      return strikes;
    },
    optionMonths(time) {
      const start = new Date(time);
      return [...Array(48).keys()].map((offset) =>
        monthCode(new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + offset, 1))),
      );
    },
    options(underlying, month, strike, right) {
      const index = MONTHS.indexOf(month.slice(0, 3));
      const year = 2000 + Number(month.slice(3));
      const found: FakeContract[] = [];
      for (let day = 1; day <= 31; day++) {
        const date = new Date(Date.UTC(year, index, day));
        if (date.getUTCMonth() !== index || date.getUTCDay() !== 5) continue;
        for (const optionRight of right ? [right] : (['C', 'P'] as const)) {
          for (const optionStrike of strike !== undefined ? [strike] : this.strikes(underlying)) {
            const expiry = ymd(date);
            const conid =
              600_000_000 +
              ((Number(expiry) * 7 + optionStrike * 1000 + underlying.conid) % 99_999_000) * 2 +
              (optionRight === 'C' ? 0 : 1);
            const option: FakeContract = {
              conid,
              secType: 'OPT',
              symbol: underlying.symbol,
              name: `${underlying.symbol} ${month} ${optionStrike} ${optionRight}`,
              currency: 'USD',
              price: 2.5,
              multiplier: 100,
              exchange: 'SMART',
              isUS: true,
              underlying: underlying.conid,
              expiry,
              strike: optionStrike,
              right: optionRight,
            };
            contracts.set(conid, option);
            found.push(option);
          }
        }
      }
      return found;
    },
    futureRoots: () => FUTURES,
  };
}
