// Budget check (DESIGN.md): the sign-in route's JavaScript stays under 200 KB gzipped.
// Reads the Vite manifest of `npm run build -w @router/web`; run `npm run size -w @router/web`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface Chunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

const BUDGET_BYTES = 200 * 1024;
const ROUTE = 'src/routes/signin/route.tsx';
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;

/** A chunk and everything it imports statically (what the browser loads before rendering it). */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) closure(imported, seen);
  return seen;
}

const keys = new Set([...closure('index.html'), ...closure(ROUTE)]);
let total = 0;
for (const key of keys) {
  const chunk = manifest[key];
  if (!chunk?.file.endsWith('.js')) continue;
  const size = gzipSync(readFileSync(join(dist, chunk.file))).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(8)} KB  ${chunk.file}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(8)} KB  sign-in route JavaScript, gzipped (budget 200 KB)`);
if (total > BUDGET_BYTES) {
  console.error('Over budget: lazy-load more of what the sign-in route does not need.');
  process.exit(1);
}
