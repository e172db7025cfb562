import type { AlertPlatform } from '@router/orders';
import { publicUrlProblems } from '@router/shared';

const TITLES: Record<AlertPlatform, string> = {
  tradingview: 'TradingView',
  trendspider: 'TrendSpider',
  zapier: 'Zapier',
};

/**
 * Shown when the platform cannot reach the webhook URL: TradingView posts only to public
 * addresses on port 80 or 443; TrendSpider and Zapier need a public address too.
 */
export function PublicUrlWarning({ url, platform }: { url: string; platform: AlertPlatform }) {
  const problems = publicUrlProblems(url).filter((p) => platform === 'tradingview' || p !== 'port');
  if (problems.length === 0) return null;
  const origin = problems.includes('invalid') ? url : new URL(url).origin;
  const title = TITLES[platform];
  return (
    <div className="alert alert-warning small" role="note">
      <p className="fw-semibold mb-1">{title} cannot reach this URL.</p>
      <p className="mb-1">
        {title} sends alerts only to a public http(s) address
        {platform === 'tradingview' ? ' on port 80 or 443' : ''}; this server answers at <code>{origin}</code>
        {problems.includes('private-host') ? ', an address only this computer or network knows' : ''}
        {problems.includes('port') ? `, on port ${new URL(url).port}` : ''}.
      </p>
      <p className="mb-0">
        To fix it, whoever runs this server puts it behind a reverse proxy with a domain name and HTTPS on port 443 (for
        example Caddy or nginx), or behind a tunnel (for example Cloudflare Tunnel or ngrok), and sets{' '}
        <code>PUBLIC_URL</code> to that public address. The webhook URLs then change to it.
      </p>
    </div>
  );
}
