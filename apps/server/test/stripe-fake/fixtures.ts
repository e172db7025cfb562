// Stripe's own objects (../shared/stripe/fixtures.json, from stripe/openapi's fixtures3.json and
// objects derived from them): every object the fake answers starts as a copy of one of these.
import fs from 'node:fs';
import path from 'node:path';

/**
 * shared/stripe/fixtures.json beside the checkout (../shared), found upwards from here: a git
 * worktree may sit a level deeper than the main checkout.
 */
function fixturesPath(): string {
  for (let dir = path.resolve(import.meta.dirname, '../../../..'); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'shared/stripe/fixtures.json');
    if (fs.existsSync(file) || path.dirname(dir) === dir) return file;
  }
}

export type StripeObject = Record<string, unknown> & { id: string; object: string };

interface FixtureFile {
  resources: Record<string, Record<string, unknown>>;
  webhook_signature_example: { secret: string; timestamp: number; header: string };
}

let loaded: FixtureFile | undefined;

export function fixtureFile(): FixtureFile {
  loaded ??= JSON.parse(fs.readFileSync(fixturesPath(), 'utf8')) as FixtureFile;
  return loaded;
}

/** A deep copy of the fixture `name` with `changes` laid over it (top-level keys). */
export function fromFixture(name: string, changes: Record<string, unknown>): StripeObject {
  const base = fixtureFile().resources[name];
  if (!base) throw new Error(`no Stripe fixture ${name}`);
  return { ...structuredClone(base), ...changes } as StripeObject;
}
