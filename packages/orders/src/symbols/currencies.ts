// Known currency codes: they decide whether "EURUSD" is a forex pair, "BTCUSDT" a crypto pair,
// or "AAPL" a plain ticker. A pair without a separator splits only where both sides are known.

// biome-ignore format: a table of codes reads better wrapped by hand
export const FIAT_CURRENCIES: ReadonlySet<string> = new Set([
  'USD', 'EUR', 'JPY', 'GBP', 'AUD', 'CAD', 'CHF', 'NZD', 'SEK', 'NOK', 'DKK', 'PLN', 'HUF', 'CZK',
  'TRY', 'ZAR', 'MXN', 'SGD', 'HKD', 'CNH', 'CNY', 'ILS', 'RUB', 'INR', 'KRW', 'THB', 'BRL', 'AED',
  'SAR', 'TWD', 'IDR', 'MYR', 'PHP', 'CLP', 'COP', 'RON', 'BGN', 'ISK', 'KWD', 'QAR', 'ARS', 'PEN',
  // Precious metals carry ISO codes and trade as currency pairs (XAUUSD).
  'XAU', 'XAG', 'XPT', 'XPD',
]);

export const METALS: ReadonlySet<string> = new Set(['XAU', 'XAG', 'XPT', 'XPD']);

// biome-ignore format: a table of codes reads better wrapped by hand
export const CRYPTO_CURRENCIES: ReadonlySet<string> = new Set([
  'BTC', 'ETH', 'USDT', 'USDC', 'DAI', 'BUSD', 'TUSD', 'FDUSD', 'PYUSD', 'USDE', 'SOL', 'XRP', 'ADA',
  'DOGE', 'DOT', 'LTC', 'BCH', 'LINK', 'AVAX', 'MATIC', 'POL', 'TRX', 'XLM', 'ATOM', 'UNI', 'ETC',
  'XMR', 'FIL', 'APT', 'ARB', 'OP', 'NEAR', 'ALGO', 'AAVE', 'SHIB', 'PEPE', 'SUI', 'TON', 'BNB',
  'HBAR', 'ICP', 'MKR', 'SAND', 'MANA', 'CRV', 'COMP', 'SNX', 'GRT', 'INJ', 'RNDR', 'RENDER', 'TIA',
  'SEI', 'WIF', 'BONK', 'JUP', 'EOS', 'XTZ', 'ZEC', 'DASH', 'KSM', 'FLOW', 'EGLD', 'KAS', 'STX',
  'LDO', 'IMX', 'AXS', 'CHZ', 'ENS', 'GALA', 'HYPE', 'TRUMP', 'WLD', 'ONDO', 'ENA', 'XBT',
]);

/** Exchange-specific codes mapped to the common one, as ccxt does (Kraken and BitMEX say XBT). */
export const CURRENCY_ALIASES: Readonly<Record<string, string>> = { XBT: 'BTC' };

/** Quote currencies tried, longest first, when a pair has no separator ("BTCUSDT" before "BTCUSD"). */
export const QUOTE_LENGTHS = [5, 4, 3] as const;

export function isKnownCurrency(code: string): boolean {
  return FIAT_CURRENCIES.has(code) || CRYPTO_CURRENCIES.has(code);
}
