// The Node.js options the server runs with, wherever it is started. `npm start` spells them out
// in the root package.json (which cannot import this; node-args.test.ts keeps the two equal);
// `npm run dev`, the test and benchmark child processes and the browser journeys take them from
// here. What each one saves, measured: docs/ARCHITECTURE.md, "Memory".
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * V8 heap sizing: a 16 MB semi-space (the young generation is two of them; V8's default here is
 * 64 MB), and a full collection once the old generation has grown by half its live size.
 */
export const V8_FLAGS: readonly string[] = ['--max-semi-space-size=16', '--heap-growing-percent=50'];

/** The preload: compile cache and drizzle-orm's module resolution (see preload.mjs). */
export const PRELOAD = path.join(import.meta.dirname, 'preload.mjs');

/** Arguments for `node` before the entry point (apps/server/src/main.ts). */
export function serverNodeArgs(): string[] {
  return [...V8_FLAGS, `--import=${pathToFileURL(PRELOAD).href}`];
}
