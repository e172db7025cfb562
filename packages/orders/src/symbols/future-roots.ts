// Futures roots we know, with each one's minimum price increment for an outright order (the
// exchange's contract specs). The adapters that name a contract by its root put prices on this
// tick (Rithmic, Tradovate); the order language refuses a known root's continuous contract written
// without its "!" (ES1, GC1), which would otherwise read as a stock ticker.
// Sources (contract specs, "Minimum Price Fluctuation" / "Minimum price change"):
//   CME Group: cmegroup.com/markets/<asset class>/<product>.contractSpecs.html (CME, CBOT, NYMEX, COMEX);
//   Eurex: eurex.com/ex-en/markets (product pages, "Contract values and price gradations").
// A root is added only with its tick from one of these; a root whose outright tick varies by
// contract month (SR3, ZQ) or whose published tick disagrees between sources (FDAX, PA) is left out.

// biome-ignore format: one product per line, its name beside it
const TICKS: Readonly<Record<string, number>> = {
  // CME equity index
  ES: 0.25, // E-mini S&P 500
  MES: 0.25, // Micro E-mini S&P 500
  NQ: 0.25, // E-mini Nasdaq-100
  MNQ: 0.25, // Micro E-mini Nasdaq-100
  RTY: 0.1, // E-mini Russell 2000
  M2K: 0.1, // Micro E-mini Russell 2000
  YM: 1, // E-mini Dow ($5)
  MYM: 1, // Micro E-mini Dow
  EMD: 0.1, // E-mini S&P MidCap 400
  NKD: 5, // Nikkei 225 (USD)
  // CBOT Treasuries: points and fractions of 1/32
  ZB: 1 / 32, // U.S. Treasury Bond
  UB: 1 / 32, // Ultra U.S. Treasury Bond
  ZN: 1 / 64, // 10-Year T-Note: 1/2 of 1/32
  TN: 1 / 64, // Ultra 10-Year T-Note: 1/2 of 1/32
  ZF: 1 / 128, // 5-Year T-Note: 1/4 of 1/32
  ZT: 1 / 256, // 2-Year T-Note: 1/8 of 1/32
  // NYMEX energy
  CL: 0.01, // WTI crude oil
  MCL: 0.01, // Micro WTI crude oil
  QM: 0.025, // E-mini crude oil
  NG: 0.001, // Henry Hub natural gas
  QG: 0.005, // E-mini natural gas
  RB: 0.0001, // RBOB gasoline, $ per gallon
  HO: 0.0001, // NY Harbor ULSD (heating oil), $ per gallon
  // COMEX / NYMEX metals
  GC: 0.1, // Gold
  MGC: 0.1, // Micro gold
  SI: 0.005, // Silver
  SIL: 0.005, // Micro silver (1,000 oz)
  HG: 0.0005, // Copper, $ per pound
  MHG: 0.0005, // Micro copper
  PL: 0.1, // Platinum
  // CBOT grains and oilseeds, cents per bushel (meal $ per short ton, oil cents per pound)
  ZC: 0.25, // Corn
  ZS: 0.25, // Soybeans
  ZW: 0.25, // Chicago SRW wheat
  KE: 0.25, // KC HRW wheat
  ZO: 0.25, // Oats
  ZM: 0.1, // Soybean meal
  ZL: 0.01, // Soybean oil
  // CME livestock, cents per pound
  LE: 0.025, // Live cattle
  GF: 0.025, // Feeder cattle
  HE: 0.025, // Lean hogs
  // CME FX, USD per unit of the currency
  '6E': 0.00005, // Euro FX
  '6B': 0.0001, // British pound
  '6A': 0.00005, // Australian dollar
  '6C': 0.00005, // Canadian dollar
  '6S': 0.00005, // Swiss franc
  '6N': 0.00005, // New Zealand dollar
  '6J': 0.0000005, // Japanese yen
  '6M': 0.00001, // Mexican peso
  M6E: 0.0001, // Micro EUR/USD
  M6A: 0.0001, // Micro AUD/USD
  M6B: 0.0001, // Micro GBP/USD
  // Eurex
  FESX: 1, // EURO STOXX 50 index
  FDXM: 1, // Mini-DAX
  FGBL: 0.01, // Euro-Bund
  FGBM: 0.01, // Euro-Bobl
  FGBS: 0.005, // Euro-Schatz
};

/** The root's tick, where it is known; undefined for other roots (their prices go as given). */
export const futureTickOf = (root: string): number | undefined =>
  Object.hasOwn(TICKS, root) ? TICKS[root] : undefined;

/** Whether `root` is a futures root we know (ES, GC, 6E…), as an exchange names it, upper case. */
export const isKnownFutureRoot = (root: string): boolean => Object.hasOwn(TICKS, root);
