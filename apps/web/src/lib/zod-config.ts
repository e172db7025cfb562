// zod compiles object parsers with `new Function` when it may; the Content Security Policy forbids
// eval, and zod's probe for it is reported as a violation even though zod falls back quietly.
// `jitless` must be set before any schema exists (each parser chooses when it is built), and
// importing zod's `config` here would put ~11 KB of zod into the first load: zod reads its
// configuration from this global when it loads (zod-config.test.ts holds it to that).
// main.tsx imports this first.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
