// The markets and account of the FOREX.com protocol fake: market ids and names as CIAPI lists
// them (EUR/USD is 401484347 in the published example), their quotes (the example's bid and
// offer), sizes, decimals and margin; WCF dates; the account's DTOs.

export interface FakeMarket {
  MarketId: number;
  Name: string;
  bid: number;
  offer: number;
  decimals: number;
  minSize: number;
  maxSize: number;
  /** Margin as a fraction of the notional. */
  margin: number;
  closed?: boolean;
}

export const FAKE_MARKETS: FakeMarket[] = [
  {
    MarketId: 401484347,
    Name: 'EUR/USD',
    bid: 1.08495,
    offer: 1.08512,
    decimals: 5,
    minSize: 1000,
    maxSize: 50_000_000,
    margin: 0.02,
  },
  {
    MarketId: 401484348,
    Name: 'GBP/USD',
    bid: 1.2647,
    offer: 1.26489,
    decimals: 5,
    minSize: 1000,
    maxSize: 50_000_000,
    margin: 0.05,
  },
  {
    MarketId: 401484349,
    Name: 'USD/JPY',
    bid: 151.482,
    offer: 151.497,
    decimals: 3,
    minSize: 1000,
    maxSize: 50_000_000,
    margin: 0.02,
  },
  // Listed, but its session is closed: orders are refused with status reason 10.
  {
    MarketId: 401484350,
    Name: 'USD/TRY',
    bid: 32.1541,
    offer: 32.2143,
    decimals: 4,
    minSize: 1000,
    maxSize: 1_000_000,
    margin: 0.2,
    closed: true,
  },
  {
    MarketId: 401500001,
    Name: 'XAU/USD',
    bid: 2330.1,
    offer: 2330.5,
    decimals: 2,
    minSize: 1,
    maxSize: 10_000,
    margin: 0.05,
  },
];

/** How far a trade's quote may be from the market: 10 pips. */
export const toleranceOf = (market: FakeMarket) => 10 * 10 ** -(market.decimals - 1);

export const wcfDate = (ms: number) => `/Date(${ms})/`;

/** The notional in USD (the account currency) of `quantity` base units at `price`. */
export function notionalUsd(market: FakeMarket, quantity: number, price: number): number {
  // Pairs quoted in another currency than USD are taken at their price (close enough for a fake).
  return market.Name.startsWith('USD/') ? quantity : quantity * price;
}

export interface FakeLogin {
  UserName: string;
  Password: string;
  AppKey: string;
  ClientAccountId: number;
  TradingAccountId: number;
  currency: string;
}

export function accountInformation(login: FakeLogin) {
  return {
    LogonUserName: login.UserName,
    ClientAccountId: login.ClientAccountId,
    ClientAccountCurrency: login.currency,
    AccountOperatorId: 2347,
    TradingAccounts: [
      {
        TradingAccountId: login.TradingAccountId,
        TradingAccountCode: login.UserName,
        TradingAccountStatus: 'Open',
        TradingAccountType: 'CFD',
      },
    ],
    PersonalEmailAddress: 'user@example.com',
    HasMultipleEmailAddresses: false,
    AccountHolders: [],
  };
}

export function marketInformation(market: FakeMarket) {
  return {
    MarketInformation: {
      MarketId: market.MarketId,
      Name: market.Name,
      MarginFactor: market.margin * 100,
      MarginFactorUnits: 26,
      MarketTypeId: 2,
      MarketType: 'Ordinary Market',
      WebMinSize: market.minSize,
      MaxSize: market.maxSize,
      Market24H: true,
      PriceDecimalPlaces: market.decimals,
      TradeOnWeb: true,
      LimitUp: false,
      LimitDown: false,
      LongPositionOnly: false,
      CloseOnly: false,
      PriceTolerance: 10,
      MarketSettingsTypeId: 4,
      MarketSettingsType: 'FX',
      MarketUnderlyingTypeId: 4,
      MarketUnderlyingType: 'FX',
      AllowGuaranteedOrders: false,
      AllowRollover: false,
    },
  };
}

/** A market by id, or one whose name starts with `prefix` (CIAPI's MarketName search). */
export const marketById = (id: unknown) => FAKE_MARKETS.find((market) => market.MarketId === id);
export const marketsNamed = (prefix: string) =>
  FAKE_MARKETS.filter((market) => market.Name.toLowerCase().startsWith(prefix.toLowerCase())).map(
    ({ MarketId, Name }) => ({
      MarketId,
      Name,
      Weighting: 0,
    }),
  );
