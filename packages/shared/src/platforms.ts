// Signal platforms (SPEC §9): their scale factors and the fixed source addresses they send from,
// so the activity log can label an Order's source address ('Last actions' Source column).

export interface Platform {
  name: string;
  title: string;
  /** Logo scale factor of SPEC §9; 1 when none is given. */
  scale: number;
  /** Fixed source IPv4 addresses the platform's webhooks come from. */
  addresses: readonly string[];
}

export const PLATFORMS = {
  tradingview: {
    name: 'tradingview',
    title: 'TradingView',
    scale: 0.8,
    addresses: ['52.89.214.238', '34.212.75.30', '54.218.53.128', '52.32.178.7'],
  },
  trendspider: { name: 'trendspider', title: 'TrendSpider', scale: 1, addresses: ['3.12.143.24'] },
  zapier: { name: 'zapier', title: 'Zapier', scale: 0.7, addresses: [] },
} as const satisfies Record<string, Platform>;

export type PlatformName = keyof typeof PLATFORMS;

const BY_ADDRESS: ReadonlyMap<string, Platform> = new Map(
  Object.values(PLATFORMS).flatMap((platform: Platform) => platform.addresses.map((a) => [a, platform] as const)),
);

/** The platform a source address belongs to; IPv4-mapped IPv6 (`::ffff:a.b.c.d`) included. */
export function platformOfAddress(address: string | null | undefined): Platform | null {
  if (!address) return null;
  const ip = address
    .trim()
    .toLowerCase()
    .replace(/^::ffff:/, '');
  return BY_ADDRESS.get(ip) ?? null;
}

/** The Source column label: the platform's title ('TradingView'), or null (the UI shows a dash). */
export function addressLabel(address: string | null | undefined): string | null {
  return platformOfAddress(address)?.title ?? null;
}
