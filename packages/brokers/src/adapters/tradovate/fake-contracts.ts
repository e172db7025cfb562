// The contract library of the Tradovate protocol fake: products, their maturities (generated
// around the fake's clock, expiring on the third Friday of the month) and one contract each,
// named as Tradovate names them (ESZ6). The front month rolls eight days before expiry, as
// Tradovate's isFront does ahead of the last trading day.
import { FUTURE_MONTH_CODES } from '@router/orders';

export interface FakeProduct {
  id: number;
  name: string;
  months: readonly number[];
  quote: number;
}

export interface FakeMaturity {
  id: number;
  productId: number;
  expirationMonth: number;
  expirationDate: string;
  isFront: boolean;
  archived: boolean;
}

export interface FakeContract {
  id: number;
  name: string;
  contractMaturityId: number;
}

const QUARTERLY = [3, 6, 9, 12];
const MONTHLY = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const PRODUCTS: FakeProduct[] = [
  { id: 10, name: 'ES', months: QUARTERLY, quote: 5400 },
  { id: 11, name: 'MES', months: QUARTERLY, quote: 5400 },
  { id: 12, name: 'NQ', months: QUARTERLY, quote: 19_000 },
  { id: 13, name: 'MNQ', months: QUARTERLY, quote: 19_000 },
  { id: 14, name: 'CL', months: MONTHLY, quote: 70 },
];
const ROLL_MS = 8 * 24 * 60 * 60_000;

function thirdFriday(year: number, month: number): number {
  const first = new Date(Date.UTC(year, month - 1, 1, 13, 30));
  const offset = (5 - first.getUTCDay() + 7) % 7;
  return Date.UTC(year, month - 1, 1 + offset + 14, 13, 30);
}

/** Maturities from the year before the earlier of `now` and `since` to two years ahead. */
export function createContractLibrary(now: number, since = now) {
  const maturities: FakeMaturity[] = [];
  const contracts: FakeContract[] = [];
  const year = new Date(now).getUTCFullYear();
  const first = new Date(Math.min(now, since)).getUTCFullYear() - 1;
  let nextMaturity = 41_000;
  let nextContract = 3_570_000;
  for (const product of PRODUCTS) {
    let front = false;
    for (let y = first; y <= year + 2; y++) {
      for (const month of product.months) {
        const expires = thirdFriday(y, month);
        const isFront: boolean = !front && expires - ROLL_MS > now;
        front ||= isFront;
        const maturity: FakeMaturity = {
          id: nextMaturity++,
          productId: product.id,
          expirationMonth: y * 100 + month,
          expirationDate: new Date(expires).toISOString(),
          isFront,
          archived: expires < now - 365 * 24 * 60 * 60_000,
        };
        maturities.push(maturity);
        const code = FUTURE_MONTH_CODES[month - 1] ?? 'F';
        contracts.push({
          id: nextContract++,
          name: `${product.name}${code}${y % 10}`,
          contractMaturityId: maturity.id,
        });
      }
    }
  }
  const productOf = (contract: FakeContract) => {
    const maturity = maturities.find((item) => item.id === contract.contractMaturityId);
    return PRODUCTS.find((item) => item.id === maturity?.productId);
  };
  return {
    products: PRODUCTS,
    maturities,
    contracts,
    byName: (name: string) => contracts.find((item) => item.name === name),
    byId: (id: number) => contracts.find((item) => item.id === id),
    quoteOf: (contract: FakeContract) => productOf(contract)?.quote ?? 100,
  };
}

export type ContractLibrary = ReturnType<typeof createContractLibrary>;
