// A provider's or platform's logo: the brand's icon from Simple Icons (CC0-1.0, a maintained set;
// only the icons imported here reach the bundle) where the set has a mark that reads at this size,
// else a monogram: the title's initials on a colour picked from the name, the same everywhere.
// Of our brokers the set has only Coinbase, as a wordmark unreadable at 2rem: brokers get monograms.
import { type SimpleIcon, siTradingview, siZapier } from 'simple-icons';
import './brand-logo.css';

const ICONS: Readonly<Record<string, SimpleIcon>> = {
  tradingview: siTradingview,
  zapier: siZapier,
};

const MONOGRAM_COLOURS = 8;

/** 'Paper Trading' → 'PT', 'Trading 212' → 'T2', 'Kraken' → 'Kr'. */
export function monogram(title: string): string {
  const words = title.split(/[\s*_.-]+/).filter(Boolean);
  if (words.length >= 2) return `${words[0]?.[0] ?? ''}${words[1]?.[0] ?? ''}`.toUpperCase();
  const word = words[0] ?? '?';
  return `${word[0]?.toUpperCase() ?? '?'}${word[1]?.toLowerCase() ?? ''}`;
}

/** A stable colour slot for a name (a small string hash). */
export function monogramColour(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return hash % MONOGRAM_COLOURS;
}

/** Decorative next to the visible title (aria-hidden); `size` in rem. */
export function BrandLogo({ name, title, size = 2 }: { name: string; title: string; size?: 1.5 | 2 | 2.5 }) {
  const icon = ICONS[name];
  const sizeClass = `brand-logo-${String(size).replace('.', '_')}`;
  if (icon) {
    return (
      <svg className={`brand-logo ${sizeClass}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path d={icon.path} fill={`#${icon.hex}`} />
      </svg>
    );
  }
  return (
    <span
      className={`brand-logo brand-monogram brand-monogram-${monogramColour(name)} ${sizeClass}`}
      aria-hidden="true"
    >
      {monogram(title)}
    </span>
  );
}
