// A server holds the code of the brokers its users trade with, not all 24 (docs/ARCHITECTURE.md
// "Memory"): importing the package reads every folder's descriptor, and a folder's adapter code
// is imported only when its broker is first loaded. Seen from a fresh Node process that records
// every module it loads. A ccxt venue's adapter brings ccxt with it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

const SCRIPT = `
import { registerHooks } from 'node:module';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
const { brokerModules, createBrokerRegistry } = await import('@router/brokers');
const adapters = () => [...new Set(seen.filter((url) => /\\/adapters\\/[a-z0-9]+\\/(?!descriptor|index)/.test(url)).map((url) => url.match(/\\/adapters\\/([a-z0-9]+)\\//)[1]))].sort();
const atImport = adapters();
const registry = createBrokerRegistry(brokerModules);
const providers = registry.providers().length;
const alpaca = await registry.load('alpaca');
const ccxt = () => seen.some((url) => url.includes('/node_modules/ccxt/'));
const afterAlpaca = adapters();
const ccxtAfterAlpaca = ccxt();
await registry.load('kraken');
console.log(JSON.stringify({ atImport, providers, afterAlpaca, ccxtAfterAlpaca, placeOrder: typeof alpaca.placeOrder, loaded: registry.loaded().map((b) => b.descriptor.name), ccxtAfterKraken: ccxt() }));
`;

it('reads every descriptor at import, and an adapter (with ccxt for a ccxt venue) only when its broker is loaded', {
  timeout: 30_000,
}, async () => {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: import.meta.dirname });
  const seen = JSON.parse(stdout) as {
    atImport: string[];
    providers: number;
    afterAlpaca: string[];
    ccxtAfterAlpaca: boolean;
    placeOrder: string;
    loaded: string[];
    ccxtAfterKraken: boolean;
  };
  // paper's adapter is the package's own export (the server's paper broker is built from it).
  expect(seen.atImport).toEqual(['paper']);
  expect(seen.providers).toBeGreaterThan(20);
  expect(seen.afterAlpaca).toEqual(['alpaca', 'paper']);
  expect(seen.placeOrder).toBe('function');
  // ccxt (~0.5 s to import) comes with a ccxt venue's adapter, so its first order does not wait for it.
  expect(seen.ccxtAfterAlpaca).toBe(false);
  expect(seen.loaded).toEqual(['alpaca', 'kraken']);
  expect(seen.ccxtAfterKraken).toBe(true);
});
