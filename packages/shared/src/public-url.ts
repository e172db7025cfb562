// Can a charting platform reach a webhook URL? TradingView posts only to public http(s)
// addresses on port 80 or 443 (its webhook help page), so a hook built on
// PUBLIC_URL=http://localhost:3000 never receives an alert. Shared by the server (a warning at
// start) and the web app (a warning beside the URL, with how to fix it).

export type PublicUrlProblem =
  /** Not an http(s) URL at all. */
  | 'invalid'
  /** localhost, a private, loopback or link-local address, or a name only a local network knows. */
  | 'private-host'
  /** A port other than 80 (http) or 443 (https). */
  | 'port';

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home', '.home.arpa', '.test', '.example'];

/** a.b.c.d in 10/8, 127/8, 169.254/16, 172.16/12, 192.168/16, 100.64/10 (carrier NAT) or 0/8. */
function isPrivateIPv4(host: string): boolean {
  const parts = host.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return false;
  const [a = 0, b = 0] = parts;
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) {
    // IPv6: loopback, unique local (fc00::/7), link-local (fe80::/10); TradingView posts over IPv4.
    const ip = host.slice(1, -1);
    return ip === '::1' || ip === '::' || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || ip.startsWith('::ffff:');
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return isPrivateIPv4(host);
  if (host === 'localhost' || !host.includes('.')) return true;
  return LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

/** Why TradingView could not post to `url`; an empty list when it can. */
export function publicUrlProblems(url: string): PublicUrlProblem[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return ['invalid'];
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return ['invalid'];
  const problems: PublicUrlProblem[] = [];
  if (isPrivateHost(parsed.hostname)) problems.push('private-host');
  // URL drops the default port of the scheme, so any port left is not 80/443 for it.
  if (parsed.port !== '' && !['80', '443'].includes(parsed.port)) problems.push('port');
  return problems;
}
