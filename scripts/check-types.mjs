// `tsc --noEmit` for every workspace.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const projects = ['packages/shared', 'packages/orders', 'packages/brokers', 'apps/server', 'apps/web', 'e2e', 'bench'];
let failed = false;
for (const project of projects) {
  const result = spawnSync('npx', ['tsc', '-p', project, '--noEmit'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
