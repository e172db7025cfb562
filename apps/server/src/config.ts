// Every environment variable the server reads, validated once at boot (DESIGN.md "Configuration").
// No other file reads process.env. Unknown or invalid values stop the start, naming the variable.
import path from 'node:path';
import type { BrokerConfig } from '@router/brokers';
import { type ListedSymbol, readSymbolFile } from '@router/brokers/paper/symbol-file';
import { DEFAULT_CREDITS } from '@router/shared';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const url = z.url({ protocol: /^https?$/ });
/** A broker's base URL: http(s), or ws(s) for brokers reached over a WebSocket (Rithmic). */
const brokerUrl = z.url({ protocol: /^(https?|wss?)$/ });
const optionalText = z.string().min(1).optional();
/** "20/100": a token bucket refilled at 20 per second holding at most 100; "0" turns it off. */
const rateLimit = z
  .string()
  .regex(/^(0|\d+(\.\d+)?\/\d+)$/, 'must be "rate/burst", e.g. 20/100, or 0')
  .transform((v) => {
    const [rate, burst] = v.split('/').map(Number);
    return { rate: rate ?? 0, burst: burst ?? 0 };
  });

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** "5s,5m,30m,2h": durations with a unit (ms, s, m, h), as milliseconds. */
const durationList = z
  .string()
  .regex(/^\d+(ms|s|m|h)(,\d+(ms|s|m|h)){0,19}$/, 'must be up to 20 durations like 5s,5m,30m,2h')
  .transform((v) =>
    v.split(',').map((item) => {
      const [, amount, unit] = /^(\d+)(ms|s|m|h)$/.exec(item) ?? [];
      return Number(amount) * (DURATION_UNITS_MS[unit ?? 's'] ?? 1000);
    }),
  )
  // A wait of 0 would make the notification worker poll the database without pause.
  .refine((waits) => waits.every((ms) => ms > 0), 'each duration must be longer than 0');

/** The documented variables: name → schema and one line of documentation. */
const variables = {
  PORT: { schema: port.default(3000), doc: 'HTTP port (default 3000)' },
  HOST: { schema: z.string().min(1).default('0.0.0.0'), doc: 'interface to listen on (default all)' },
  PUBLIC_URL: {
    schema: url.optional(),
    doc: 'origin users reach the server at; builds webhook and email links (default http://localhost:PORT)',
  },
  DATA_DIR: {
    schema: z.string().min(1).default('./data'),
    doc: 'embedded PostgreSQL data and the generated secrets key',
  },
  DATABASE_URL: {
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    doc: 'external PostgreSQL ≥ 15; empty starts the embedded PostgreSQL under DATA_DIR',
  },
  SECRETS_KEY: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be 32 bytes in base64 (44 characters)')
      .optional(),
    doc: 'AES-256 key for broker credentials; empty: generated once into DATA_DIR/secrets.key (mode 0600)',
  },
  SMTP_URL: {
    schema: z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
    doc: 'mail server; empty: mails are written to the log',
  },
  MAIL_FROM: { schema: z.string().min(3).default('Signal Router <no-reply@localhost>'), doc: 'sender of mails' },
  SUPPORT_EMAIL: {
    schema: z.email({ error: 'must be an email address' }).optional(),
    doc: "the web app's Contact Support address (mailto:); empty: Contact Support opens the FAQ",
  },
  SIGNAL_CREDITS: {
    schema: z
      .string()
      .regex(/^(unlimited|\d{1,8})$/, 'must be "unlimited" or the credits of a new account (a whole number)')
      .default(String(DEFAULT_CREDITS))
      .transform((v) =>
        v === 'unlimited'
          ? { unlimited: true, signupCredits: DEFAULT_CREDITS }
          : { unlimited: false, signupCredits: Number(v) },
      ),
    doc: `credits a new account gets (default ${DEFAULT_CREDITS}); "unlimited": signals are not metered (new accounts still get ${DEFAULT_CREDITS})`,
  },
  ADMIN_EMAILS: {
    schema: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.email('must be email addresses separated by commas'))),
    doc: 'comma-separated emails that become administrators once confirmed; empty: the first account to confirm its email does',
  },
  STRIPE_SECRET_KEY: {
    schema: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\S+$/, 'must be a Stripe secret key (sk_test_…, sk_live_… or rk_…)')
      .optional(),
    doc: 'card payments through Stripe (optional); without it credits are granted by an administrator',
  },
  STRIPE_WEBHOOK_SECRET: {
    schema: z
      .string()
      .regex(/^whsec_\S+$/, 'must be a webhook signing secret (whsec_…)')
      .optional(),
    doc: 'verifies the Stripe-Signature of POST /api/stripe/webhook (the endpoint secret of that URL in Stripe)',
  },
  STRIPE_PUBLISHABLE_KEY: {
    schema: z
      .string()
      .regex(/^pk_(test|live)_\S+$/, 'must be a Stripe publishable key (pk_test_… or pk_live_…)')
      .optional(),
    doc: 'loads Stripe.js for the card form of /signup/checkout (the hosted Checkout page needs none)',
  },
  STRIPE_API_URL: {
    schema: z
      .url({ protocol: /^https?$/ })
      .refine((v) => {
        const u = URL.parse(v);
        return u !== null && u.pathname === '/' && !u.search && !u.hash && !u.username;
      }, 'must be an origin like https://api.stripe.com or http://127.0.0.1:12111 (no path)')
      .optional(),
    doc: 'a Stripe-compatible API host (tests, staging); default https://api.stripe.com',
  },
  GOOGLE_CLIENT_ID: { schema: optionalText, doc: 'enables Google sign-in' },
  APPLE_CLIENT_ID: { schema: optionalText, doc: 'enables Apple sign-in' },
  GOOGLE_JWKS_URL: { schema: url.default('https://www.googleapis.com/oauth2/v3/certs'), doc: 'Google ID token keys' },
  APPLE_JWKS_URL: { schema: url.default('https://appleid.apple.com/auth/keys'), doc: 'Apple ID token keys' },
  SESSION_TTL_DAYS: {
    schema: z.coerce.number().int().min(1).max(365).default(30),
    doc: 'days a sign-in session stays valid (API tokens do not expire; second-factor sessions last 5 minutes)',
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    doc: 'pino log level',
  },
  HOOK_DEADLINE_MS: {
    schema: z.coerce.number().int().min(100).max(2900).default(2500),
    doc: 'broker call deadline inside TradingView’s 3 s timeout; later the answer is accepted',
  },
  HOOK_DEDUPE_WINDOW_S: {
    schema: z.coerce.number().int().min(0).max(86400).default(60),
    doc: 'a repeated body on the same hook within this window is one signal',
  },
  HOOK_INVALID_THRESHOLD: {
    schema: z.coerce.number().int().min(1).default(50),
    doc: 'invalid requests within an hour after which a hook is deactivated',
  },
  HOOK_RATE_PER_HOOK: {
    schema: rateLimit.default({ rate: 20, burst: 100 }),
    doc: 'signals per second per hook, "rate/burst" (default 20/100; 0 disables)',
  },
  HOOK_RATE_PER_ADDRESS: {
    schema: rateLimit.default({ rate: 100, burst: 1000 }),
    doc: 'requests per second per source address on /hook, "rate/burst" (default 100/1000; 0 disables); platform addresses are exempt',
  },
  API_RATE_PER_TOKEN: {
    schema: rateLimit.default({ rate: 10, burst: 50 }),
    doc: 'REST API (/api/v1) requests per second per bearer token, "rate/burst" (default 10/50; 0 disables)',
  },
  HOOK_RECONCILE_AFTER_MS: {
    schema: z.coerce.number().int().min(1000).max(3_600_000).default(35_000),
    doc: 'age after which a placing/unknown signal is looked up at the broker (default 35000, above the 30 s call limit; lower only with one instance, e.g. fault drills); passes run every min(30 s, this)',
  },
  HOOK_TIMINGS: {
    schema: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    doc: 'expose per-phase hook timings at GET /api/internal/hook-timings (benchmarks only)',
  },
  PG_STAT_STATEMENTS: {
    schema: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    doc: 'embedded PostgreSQL only: load pg_stat_statements with planning times (profiling; BENCH_PG_STATS=1 prints its top statements)',
  },
  METRICS_TOKEN: {
    schema: z.string().min(16, 'must be at least 16 characters').optional(),
    doc: 'bearer token that opens GET /metrics (Prometheus); empty: /metrics answers 404',
  },
  ACTIVITY_RETENTION_DAYS: {
    schema: z.coerce.number().int().min(1).max(36_500).default(365),
    doc: 'days the activity log keeps an entry (default 365); older ones are removed by a job',
  },
  PAPER_STARTING_CASH: {
    schema: z.coerce.number().positive().default(100000),
    doc: 'cash of a new paper account (USD)',
  },
  PAPER_SYMBOLS_FILE: {
    schema: z
      .string()
      .min(1)
      .optional()
      .transform((file, ctx): PaperSymbolsFile | undefined => {
        if (file === undefined) return undefined;
        try {
          return { path: path.resolve(file), symbols: readSymbolFile(file) };
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
          return z.NEVER;
        }
      }),
    doc: 'more symbols for the paper broker, besides the built-in list (same format as packages/brokers/src/adapters/paper/symbols.txt); unlisted symbols are refused',
  },
  TRUST_PROXY: {
    // How many reverse proxies stand in front (true: one); the client address is the entry of
    // X-Forwarded-For the farthest of them appended. Entries before it are the client's own words.
    schema: z
      .string()
      .regex(/^(true|false|[0-9])$/, 'expected true, false or the number of proxies in front (0-9)')
      .default('false')
      .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v))),
    doc: 'behind reverse proxies: true (one) or how many stand in front (e.g. 2 for a CDN then a load balancer); the client address is the X-Forwarded-For entry the farthest one appended',
  },
  ALLOW_PRIVATE_WEBHOOKS: {
    schema: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    doc: 'let notification webhooks reach private and loopback addresses, and plain http to localhost (tests only)',
  },
  NOTIFICATION_RETRY_SCHEDULE: {
    schema: durationList.default([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000]),
    doc: 'waits between a failed notification delivery and its retries (default 5s,5m,30m,2h,5h,10h)',
  },
} as const;

/** A self-hoster's symbol file for the paper broker, read and checked at boot. */
export interface PaperSymbolsFile {
  path: string;
  symbols: ListedSymbol[];
}

type Variables = typeof variables;
export type BaseConfig = { [K in keyof Variables]: z.output<Variables[K]['schema']> };

export interface Config extends Omit<BaseConfig, 'PUBLIC_URL' | 'DATA_DIR'> {
  PUBLIC_URL: string;
  DATA_DIR: string;
  /** Per broker name, its `<BROKER>_CLIENT_ID`, `<BROKER>_CLIENT_SECRET` and `<BROKER>_BASE_URL`. */
  brokers: Record<string, BrokerConfig>;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * A refused value as its error shows it (on the console, in a log): a malformed secret may still
 * be a real one, never echoed; nor the user and password of a URL (SMTP_URL, DATABASE_URL, a
 * broker's base URL), everything before its last `@`.
 */
function shown(name: string, raw: string | undefined): string {
  if (/SECRET|_KEY$/.test(name)) return 'value hidden';
  return `got ${JSON.stringify(raw?.replace(/^([a-z][a-z0-9+.-]*:\/*)?.*@/is, '$1***@'))}`;
}

const BROKER_VARIABLE = /^([A-Z0-9_]+?)_(CLIENT_ID|CLIENT_SECRET|BASE_URL)$/;
const NOT_BROKERS = new Set(['GOOGLE', 'APPLE']);

/** Reads the environment; `brokerNames` are the registered providers (lower case). */
export function loadConfig(env: NodeJS.ProcessEnv, brokerNames: readonly string[]): Config {
  const base: Record<string, unknown> = {};
  for (const [name, { schema }] of Object.entries(variables)) {
    const raw = env[name] === '' ? undefined : env[name];
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new ConfigError(`${name}: ${parsed.error.issues[0]?.message ?? 'invalid value'} (${shown(name, raw)})`);
    }
    base[name] = parsed.data;
  }
  const brokers: Record<string, BrokerConfig> = {};
  const known = new Set(brokerNames.map((n) => n.toUpperCase()));
  for (const [name, value] of Object.entries(env)) {
    const match = BROKER_VARIABLE.exec(name);
    if (!match || !value || NOT_BROKERS.has(match[1] as string)) continue;
    const [, broker, kind] = match as unknown as [string, string, string];
    if (!known.has(broker)) {
      throw new ConfigError(`${name}: unknown broker ${broker.toLowerCase()} (known: ${brokerNames.join(', ')})`);
    }
    if (kind === 'BASE_URL' && !brokerUrl.safeParse(value).success) {
      throw new ConfigError(`${name}: must be an http(s) or ws(s) URL (${shown(name, value)})`);
    }
    const entry: BrokerConfig = brokers[broker.toLowerCase()] ?? {};
    brokers[broker.toLowerCase()] = entry;
    if (kind === 'CLIENT_ID') entry.clientId = value;
    else if (kind === 'CLIENT_SECRET') entry.clientSecret = value;
    else entry.baseUrl = value.replace(/\/$/, '');
  }
  const config = base as BaseConfig;
  return {
    ...config,
    PUBLIC_URL: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ''),
    DATA_DIR: path.resolve(config.DATA_DIR),
    brokers,
  };
}

/** The process's own environment: what `npm start` and `npm run db:migrate` read. */
export function loadProcessConfig(brokerNames: readonly string[]): Config {
  return loadConfig(process.env, brokerNames);
}

/** One line per variable, for the README and `--help`. */
export function describeConfig(): string {
  return Object.entries(variables)
    .map(([name, { doc }]) => `${name}: ${doc}`)
    .join('\n');
}
