// The PostgreSQL-restart fault drill (and CI's external-database run) use Debian's PostgreSQL
// server binaries. Installs the package when none is found and we run as root; otherwise stops
// with a message saying how to install it.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = '/usr/lib/postgresql';

export function findPostgresBin() {
  if (!fs.existsSync(ROOT)) return undefined;
  const versions = fs
    .readdirSync(ROOT)
    .filter((v) => fs.existsSync(path.join(ROOT, v, 'bin/pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(ROOT, versions[0], 'bin') : undefined;
}

export function ensurePostgresql() {
  const found = findPostgresBin();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    console.error(
      'The fault drills need the PostgreSQL server binaries. Install them ' +
        '(Debian/Ubuntu: `sudo apt-get install -y postgresql`), then run the tests again.',
    );
    process.exit(1);
  }
  console.log('Installing PostgreSQL from Debian packages (apt-get)…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql', {
    stdio: 'inherit',
  });
  const installed = findPostgresBin();
  if (!installed) {
    console.error('apt-get finished but no pg_ctl was found under /usr/lib/postgresql.');
    process.exit(1);
  }
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensurePostgresql());
