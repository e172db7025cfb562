// A deterministic synthetic market: each symbol's price is a smooth function of the symbol and
// the time, so the simulator needs no market data and tests can predict every fill.
import type { OrderClass } from '@router/orders';

/**
 * The price of an instrument's price key at an instant (ms since epoch): AAPL, BTCUSD, EURUSD,
 * a futures root (ES), a CFD (US500). Options and dated futures are priced from these.
 */
export type QuoteSource = (key: string, cls: OrderClass, at: number) => number;

/** The level a key's walk moves around, when the symbol list gives one. */
export type LevelOf = (key: string, cls: OrderClass) => number | undefined;

/** Relative amplitude of the slowest wave, by class (forex moves least, crypto most). */
const VOLATILITY: Partial<Record<OrderClass, number>> = { stock: 0.04, crypto: 0.08, forex: 0.008, future: 0.03 };

const HOUR = 3_600_000;
/** Wave periods and relative amplitudes: a day, a few hours, under an hour, minutes. */
const WAVES = [
  { period: 24 * HOUR, weight: 1 },
  { period: 3 * HOUR, weight: 0.5 },
  { period: 0.7 * HOUR, weight: 0.25 },
  { period: 0.12 * HOUR, weight: 0.03 },
];

export function symbolKey(symbol: string): string {
  return symbol.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** FNV-1a, 32 bits: a stable seed per symbol. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny seeded generator of numbers in [0, 1). */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hashedBase(cls: OrderClass, random: () => number): number {
  const [low, high] = cls === 'forex' ? [0.5, 2] : cls === 'crypto' ? [0.1, 5000] : [10, 500];
  return low * (high / low) ** random();
}

interface Curve {
  base: number;
  waves: Array<{ period: number; amplitude: number; phase: number }>;
}

/** A smooth deterministic walk per key: level × exp(sum of sine waves); not rounded. */
export function createSyntheticQuote(levelOf: LevelOf): QuoteSource {
  const curves = new Map<string, Curve>();
  const curveOf = (key: string, cls: OrderClass): Curve => {
    const cacheKey = `${cls}:${key}`;
    const cached = curves.get(cacheKey);
    if (cached) return cached;
    const random = generator(hash(cacheKey));
    const base = levelOf(key, cls) ?? hashedBase(cls, random);
    const volatility = VOLATILITY[cls] ?? 0.04;
    const curve: Curve = {
      base,
      waves: WAVES.map((wave) => ({
        period: wave.period * (0.8 + 0.4 * random()),
        amplitude: volatility * wave.weight,
        phase: 2 * Math.PI * random(),
      })),
    };
    // Keys come from what users trade: bound the cache rather than let it grow without end.
    if (curves.size >= 10_000) curves.clear();
    curves.set(cacheKey, curve);
    return curve;
  };
  return (key, cls, at) => {
    const curve = curveOf(symbolKey(key), cls);
    let exponent = 0;
    for (const wave of curve.waves)
      exponent += wave.amplitude * Math.sin((2 * Math.PI * at) / wave.period + wave.phase);
    return curve.base * Math.exp(exponent);
  };
}
