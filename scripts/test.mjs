// `npm test`: makes sure Chromium, PostgreSQL's server binaries (the database-restart drill) and
// a built web app exist, then runs every Vitest project.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensurePostgresql } from './ensure-postgresql.mjs';

const root = path.resolve(import.meta.dirname, '..');
const chromium = ensureChromium();
ensurePostgresql();
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-web-if-stale.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(run.status ?? 1);
