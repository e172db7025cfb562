// @fastify/helmet (13.2) calls `helmet(options)` for every request, and helmet then checks the
// options and parses the Content Security Policy's directives anew before setting a single
// header: ~3 µs and ~4 KB of garbage per request, 8 % of all the server allocated on the live hook
// at 500/s (docs/SCALING.md). The middleware helmet builds depends only on its options, and the plugin
// passes one options object for every request of a route without options of its own. So, before
// the plugin loads helmet, helmet's export in Node's module cache is replaced by one that builds
// the middleware once per options object; the plugin still decides which headers every answer
// gets. Imported by security-headers.ts ahead of @fastify/helmet.
import { createRequire } from 'node:module';

type Middleware = (req: unknown, res: unknown, next: (error?: unknown) => void) => void;
type Helmet = ((options?: object) => Middleware) & Record<string, unknown>;
type Counts = { built: number; reused: number };
type Once = Helmet & { builds: Counts };

const fromPlugin = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'));
const helmetPath = fromPlugin.resolve('helmet');
fromPlugin(helmetPath);
const entry = fromPlugin.cache[helmetPath];
if (!entry) throw new Error(`helmet not in the module cache at ${helmetPath}`);
const cached: NodeJS.Module = entry;
const original = cached.exports as Helmet;

// Kept on the function in the module cache: a module loaded again (a test runner's isolation)
// finds it there and does not wrap twice.
if (!('builds' in original)) {
  const builds: Counts = { built: 0, reused: 0 };
  const built = new WeakMap<object, Middleware>();
  const once = ((options?: object) => {
    if (!options) return original(options);
    const known = built.get(options);
    if (known) {
      builds.reused += 1;
      return known;
    }
    const middleware = original(options);
    built.set(options, middleware);
    builds.built += 1;
    return middleware;
  }) as Once;
  // The named middlewares (contentSecurityPolicy, …) the plugin reads for CSP nonces.
  Object.assign(once, original, { default: once, builds });
  cached.exports = once;
}

/** How often a middleware was built and reused (security-headers.test.ts checks the reuse). */
export function helmetBuilds(): Counts {
  return { ...(cached.exports as Once).builds };
}

/** Helmet's middleware for `options`, as the plugin gets it (built once per options object). */
export function helmetMiddleware(options: object): Middleware {
  return (cached.exports as Helmet)(options);
}
