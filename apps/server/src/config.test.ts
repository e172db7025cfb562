import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brokerVariables } from '@router/brokers';
import { describe, expect, it } from 'vitest';
import { brokerNames } from './brokers.ts';
import { ConfigError, describeConfig, loadConfig } from './config.ts';

const brokers = ['paper', 'alpaca'];

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({}, brokers);
    expect(config.PORT).toBe(3000);
    expect(config.PUBLIC_URL).toBe('http://localhost:3000');
    expect(config.DATA_DIR.endsWith('/data')).toBe(true);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.HOOK_DEADLINE_MS).toBe(2500);
    expect(config.SUPPORT_EMAIL).toBeUndefined();
    expect(config.METRICS_TOKEN).toBeUndefined();
    expect(config.ACTIVITY_RETENTION_DAYS).toBe(365);
  });

  it('reads values and broker variables', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        PUBLIC_URL: 'https://router.example.com/',
        ALPACA_BASE_URL: 'http://127.0.0.1:9999/',
        ALPACA_CLIENT_ID: 'id',
        SUPPORT_EMAIL: 'help@router.example.com',
      },
      brokers,
    );
    expect(config.PORT).toBe(8080);
    expect(config.PUBLIC_URL).toBe('https://router.example.com');
    expect(config.SUPPORT_EMAIL).toBe('help@router.example.com');
    expect(config.brokers.alpaca).toEqual({ baseUrl: 'http://127.0.0.1:9999', clientId: 'id' });
  });

  it('takes a ws(s) base URL for a broker reached over a WebSocket, and no other scheme', () => {
    const config = loadConfig({ RITHMIC_BASE_URL: 'wss://rituz00100.rithmic.com:443' }, [...brokers, 'rithmic']);
    expect(config.brokers.rithmic).toEqual({ baseUrl: 'wss://rituz00100.rithmic.com:443' });
    expect(() => loadConfig({ RITHMIC_BASE_URL: 'ftp://gateway.example' }, [...brokers, 'rithmic'])).toThrow(
      /^RITHMIC_BASE_URL: must be an http\(s\) or ws\(s\) URL/,
    );
  });

  it('accepts the variables of every broker folder, and of no other', () => {
    const settings = { baseUrl: 'http://127.0.0.1:9', clientId: 'app', clientSecret: 'secret' };
    const env = Object.assign({}, ...brokerNames().map((name) => brokerVariables(name, settings)));
    const config = loadConfig(env, brokerNames());
    expect(Object.keys(config.brokers).sort()).toEqual([...brokerNames()].sort());
    for (const entry of Object.values(config.brokers)) expect(entry).toEqual(settings);
    expect(brokerNames()).toContain('schwab');
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT:/],
    [{ PORT: '70000' }, /^PORT:/],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL:/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL:/],
    [{ PUBLIC_URL: 'ftp://x' }, /^PUBLIC_URL:/],
    [{ SECRETS_KEY: 'short' }, /^SECRETS_KEY:/],
    [{ SUPPORT_EMAIL: 'support' }, /^SUPPORT_EMAIL: must be an email address/],
    [{ NOSUCHBROKER_BASE_URL: 'http://x' }, /^NOSUCHBROKER_BASE_URL: unknown broker/],
    [{ ALPACA_BASE_URL: 'not a url' }, /^ALPACA_BASE_URL:/],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN: must be at least 16 characters/],
    [{ ACTIVITY_RETENTION_DAYS: '0' }, /^ACTIVITY_RETENTION_DAYS:/],
    [{ ACTIVITY_RETENTION_DAYS: 'forever' }, /^ACTIVITY_RETENTION_DAYS:/],
    [{ SIGNAL_CREDITS: 'Unlimited' }, /^SIGNAL_CREDITS:/],
    [{ SIGNAL_CREDITS: '-5' }, /^SIGNAL_CREDITS:/],
    [{ SIGNAL_CREDITS: '2.5' }, /^SIGNAL_CREDITS:/],
    [{ ADMIN_EMAILS: 'root@example.com, not-an-email' }, /^ADMIN_EMAILS: must be email addresses/],
    [{ STRIPE_API_URL: 'api.stripe.com' }, /^STRIPE_API_URL:/],
    [{ STRIPE_API_URL: 'http://127.0.0.1:12111/v1' }, /^STRIPE_API_URL: must be an origin/],
    [{ STRIPE_SECRET_KEY: 'pk_test_123' }, /^STRIPE_SECRET_KEY:/],
    [{ STRIPE_WEBHOOK_SECRET: 'secret' }, /^STRIPE_WEBHOOK_SECRET:/],
    [{ STRIPE_PUBLISHABLE_KEY: 'sk_test_123' }, /^STRIPE_PUBLISHABLE_KEY:/],
  ])('refuses %o naming the variable', (env, message) => {
    expect(() => loadConfig(env, brokers)).toThrow(ConfigError);
    expect(() => loadConfig(env, brokers)).toThrow(message);
  });

  it('reads the notification retry schedule as durations', () => {
    expect(loadConfig({}, brokers).NOTIFICATION_RETRY_SCHEDULE).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000,
    ]);
    expect(loadConfig({ NOTIFICATION_RETRY_SCHEDULE: '250ms,2s,1m,1h' }, brokers).NOTIFICATION_RETRY_SCHEDULE).toEqual([
      250, 2_000, 60_000, 3_600_000,
    ]);
    for (const bad of ['5', '5s,', 'soon', '5s, 5m', '0s', '5s,0ms']) {
      expect(() => loadConfig({ NOTIFICATION_RETRY_SCHEDULE: bad }, brokers)).toThrow(/NOTIFICATION_RETRY_SCHEDULE/);
    }
  });

  it('reads SIGNAL_CREDITS: the sign-up grant (default 5), or unlimited', () => {
    expect(loadConfig({}, brokers).SIGNAL_CREDITS).toEqual({ unlimited: false, signupCredits: 5 });
    expect(loadConfig({ SIGNAL_CREDITS: '0' }, brokers).SIGNAL_CREDITS).toEqual({ unlimited: false, signupCredits: 0 });
    expect(loadConfig({ SIGNAL_CREDITS: '250' }, brokers).SIGNAL_CREDITS.signupCredits).toBe(250);
    expect(loadConfig({ SIGNAL_CREDITS: 'unlimited' }, brokers).SIGNAL_CREDITS.unlimited).toBe(true);
  });

  it('reads ADMIN_EMAILS: trimmed, lower-cased, empty entries dropped', () => {
    expect(loadConfig({}, brokers).ADMIN_EMAILS).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Root@Example.com,,ops@example.com ' }, brokers).ADMIN_EMAILS).toEqual([
      'root@example.com',
      'ops@example.com',
    ]);
  });

  it('reads the Stripe variables and never echoes a malformed secret', () => {
    const config = loadConfig(
      {
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
        STRIPE_API_URL: 'http://127.0.0.1:12111',
      },
      brokers,
    );
    expect(config.STRIPE_API_URL).toBe('http://127.0.0.1:12111');
    expect(config.STRIPE_SECRET_KEY).toBe('sk_test_abc');
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'live-secret-typo' }, brokers)).toThrow(/value hidden/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'live-secret-typo' }, brokers)).not.toThrow(/live-secret-typo/);
  });

  it("never echoes a URL's user and password in its error (a typo in SMTP_URL, DATABASE_URL, a broker's URL)", () => {
    const refused = (env: Record<string, string>, names = brokers) => {
      try {
        loadConfig(env, names);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refused({ SMTP_URL: 'smpt://mailer:hunter2@mail.example:587' })).toBe(
      'SMTP_URL: must start with smtp:// or smtps:// (got "smpt://***@mail.example:587")',
    );
    expect(refused({ DATABASE_URL: 'postgress://app:p@ss:w/rd@db.example/router' })).toBe(
      'DATABASE_URL: must start with postgres:// or postgresql:// (got "postgress://***@db.example/router")',
    );
    expect(refused({ RITHMIC_BASE_URL: 'ftp://user:hunter2@gateway.example' }, [...brokers, 'rithmic'])).toBe(
      'RITHMIC_BASE_URL: must be an http(s) or ws(s) URL (got "ftp://***@gateway.example")',
    );
    expect(refused({ SMTP_URL: 'mail.example' })).toContain('(got "mail.example")');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }, brokers).PORT).toBe(3000);
  });

  it('reads a paper symbol file, and refuses one with a mistake naming its line', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'symbols-'));
    const good = path.join(dir, 'good.txt');
    fs.writeFileSync(good, '[stock]\nZZZZZQ 12\n');
    expect(loadConfig({ PAPER_SYMBOLS_FILE: good }, brokers).PAPER_SYMBOLS_FILE).toEqual({
      path: good,
      symbols: [{ section: 'stock', symbol: 'ZZZZZQ', price: 12 }],
    });
    const bad = path.join(dir, 'bad.txt');
    fs.writeFileSync(bad, '[stock]\nZZZZZQ twelve\n');
    expect(() => loadConfig({ PAPER_SYMBOLS_FILE: bad }, brokers)).toThrow(
      `PAPER_SYMBOLS_FILE: ${bad} line 2: price "twelve" must be a positive number`,
    );
    expect(() => loadConfig({ PAPER_SYMBOLS_FILE: path.join(dir, 'none.txt') }, brokers)).toThrow(
      /^PAPER_SYMBOLS_FILE: .*none.txt: cannot be read \(ENOENT\)/,
    );
  });
});

describe("README's table of variables", () => {
  it('names every variable the server reads, and only those (brokers by their pattern)', () => {
    const readme = fs.readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const names = (text: string) => [...text.matchAll(/`([A-Z][A-Z0-9_]+|<BROKER>_[A-Z_]+)`/g)].map((n) => n[1] ?? '');
    const rows = [...readme.matchAll(/^\| ((?:`[A-Z0-9_<>]+`(?:, )?)+) \|(.*)$/gm)];
    const rowNames = new Set(rows.flatMap((row) => names(row[1] ?? '')));
    const mentioned = new Set(rows.flatMap((row) => names(`${row[1]} ${row[2]}`)));
    const read = describeConfig()
      .split('\n')
      .map((line) => line.slice(0, line.indexOf(':')));
    expect(read.length).toBeGreaterThan(30);
    expect(read.filter((name) => !mentioned.has(name))).toEqual([]);
    const brokers = brokerNames().map((name) => name.toUpperCase());
    const broker = new RegExp(`^(<BROKER>|${brokers.join('|')})_(CLIENT_ID|CLIENT_SECRET|BASE_URL)$`);
    expect([...rowNames].filter((name) => !read.includes(name) && !broker.test(name))).toEqual([]);
  });
});
