// The world behind the MetaApi protocol fake: tokens, the broker servers MetaApi knows (the
// ICMarketsSC answer is the one recorded in broker-specs/metatrader/fixtures), the MT accounts
// those servers hold, and the instruments they quote, named as each server names them.

export const OPERATOR_TOKEN = 'site-metaapi-token';

/** A JWT-shaped MetaApi token of a user who added accounts at MetaApi themselves. */
export function userToken(subject: string, expiresAt?: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { sub: subject, ...(expiresAt !== undefined ? { exp: Math.floor(expiresAt / 1000) } : {}) };
  return `${part({ alg: 'RS512', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}

/** Known servers per MT version: broker name → server names. */
export const KNOWN_SERVERS: Record<4 | 5, Record<string, string[]>> = {
  5: {
    'Raw Trading Ltd': ['ICMarketsSC-Demo', 'ICMarketsSC-MT5'],
    'Exness Technologies Ltd': ['Exness-MT5Trial7', 'Exness-MT5Real8'],
    'FTMO S.R.O.': ['FTMO-Demo', 'FTMO-Server'],
  },
  4: {
    'Raw Trading Ltd': ['ICMarketsSC-Demo02', 'ICMarketsSC-Live07'],
    'Pepperstone Group Limited': ['Pepperstone-Demo01', 'Pepperstone-Edge01'],
  },
};

export interface Instrument {
  bid: number;
  ask: number;
  /** Units per lot. */
  contractSize: number;
  /** The symbol specification's lot step and smallest volume (default 0.01 both). */
  volumeStep?: number;
  minVolume?: number;
}

/** Quotes by the plain name; servers add their own suffix or prefix (SERVER_SYMBOLS). */
export const INSTRUMENTS: Record<string, Instrument> = {
  EURUSD: { bid: 1.085, ask: 1.0852, contractSize: 100_000 },
  GBPUSD: { bid: 1.27, ask: 1.2702, contractSize: 100_000 },
  AUDNZD: { bid: 1.0578, ask: 1.0581, contractSize: 100_000 },
  XAUUSD: { bid: 2400, ask: 2400.4, contractSize: 100 },
  BTCUSD: { bid: 60_000, ask: 60_020, contractSize: 1 },
  US30: { bid: 39_000, ask: 39_002, contractSize: 1 },
  GER40: { bid: 18_400, ask: 18_401.5, contractSize: 1 },
  AAPL: { bid: 190, ask: 190.05, contractSize: 1, volumeStep: 1, minVolume: 1 },
};

/** Server → its symbol name → the instrument it quotes. */
const naming = (rename: (plain: string) => string, only?: string[]) =>
  Object.fromEntries(
    Object.keys(INSTRUMENTS)
      .filter((plain) => !only || only.includes(plain))
      .map((plain) => [rename(plain), plain]),
  );
export const SERVER_SYMBOLS: Record<string, Record<string, string>> = {
  'ICMarketsSC-Demo': naming((plain) => (plain === 'AAPL' ? 'AAPL.NAS' : plain)),
  'ICMarketsSC-Demo02': naming((plain) => plain, ['EURUSD', 'GBPUSD', 'AUDNZD', 'XAUUSD', 'US30']),
  'Exness-MT5Trial7': naming((plain) => `${plain}m`, ['EURUSD', 'GBPUSD', 'XAUUSD', 'BTCUSD', 'US30']),
  'FTMO-Demo': naming((plain) => (plain === 'US30' || plain === 'GER40' ? `${plain}.cash` : plain)),
};

export interface MtAccount {
  login: string;
  password: string;
  investorPassword: string;
  server: string;
  platform: 'mt4' | 'mt5';
  tradeMode: 'ACCOUNT_TRADE_MODE_DEMO' | 'ACCOUNT_TRADE_MODE_REAL';
  currency: string;
  balance: number;
  leverage: number;
  /** The MetaApi id the account gets when it is first added. */
  metaApiId: string;
  /** Resource slots MetaApi asks for (E_RESOURCE_SLOTS below it). */
  slots?: number;
}

export const MT_ACCOUNTS: MtAccount[] = [
  {
    login: '1234567',
    password: 'master-pass',
    investorPassword: 'investor-pass',
    server: 'ICMarketsSC-Demo',
    platform: 'mt5',
    tradeMode: 'ACCOUNT_TRADE_MODE_DEMO',
    currency: 'USD',
    balance: 10_000,
    leverage: 100,
    metaApiId: '865d3a4d-3803-486d-bdf3-a85679d9fad2',
  },
  {
    login: '7654321',
    password: 'mt4-pass',
    investorPassword: 'mt4-investor',
    server: 'ICMarketsSC-Demo02',
    platform: 'mt4',
    tradeMode: 'ACCOUNT_TRADE_MODE_DEMO',
    currency: 'USD',
    balance: 5_000,
    leverage: 500,
    metaApiId: '2b7c1f90-4d1e-4c55-9a31-6f0e8d2a7b14',
  },
  {
    login: '5550001',
    password: 'exness-pass',
    investorPassword: 'exness-investor',
    server: 'Exness-MT5Trial7',
    platform: 'mt5',
    tradeMode: 'ACCOUNT_TRADE_MODE_DEMO',
    currency: 'USD',
    balance: 2_000,
    leverage: 200,
    metaApiId: 'c4e8a2b6-0f1d-4e3a-8b7c-9d5e6f7a8b9c',
    slots: 2,
  },
  {
    login: '88012345',
    password: 'ftmo-pass',
    investorPassword: 'ftmo-investor',
    server: 'FTMO-Demo',
    platform: 'mt5',
    tradeMode: 'ACCOUNT_TRADE_MODE_REAL',
    currency: 'EUR',
    balance: 100_000,
    leverage: 100,
    metaApiId: 'f1a2b3c4-d5e6-4f70-8a9b-0c1d2e3f4a5b',
  },
];

/** Servers of a version similar to `server` (E_SRV_NOT_FOUND suggests them). */
export function similarServers(version: 4 | 5, server: string): Record<string, string[]> {
  const stem = server.toLowerCase().slice(0, 5);
  const found: Record<string, string[]> = {};
  for (const [broker, names] of Object.entries(KNOWN_SERVERS[version])) {
    const like = names.filter((name) => name.toLowerCase().startsWith(stem));
    if (like.length) found[broker] = like;
  }
  return found;
}

/** The known-server search: names or broker names containing the query, any case. */
export function searchServers(version: 4 | 5, query: string): Record<string, string[]> {
  const lower = query.toLowerCase();
  const found: Record<string, string[]> = {};
  for (const [broker, names] of Object.entries(KNOWN_SERVERS[version])) {
    const hits = broker.toLowerCase().includes(lower) ? names : names.filter((n) => n.toLowerCase().includes(lower));
    if (hits.length) found[broker] = hits;
  }
  return found;
}
