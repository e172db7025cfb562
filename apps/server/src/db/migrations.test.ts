// Fails when the Drizzle schema and the committed migrations disagree: run `npm run db:generate`.
import fs from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from './migrate.ts';
import * as schema from './schema/index.ts';

describe('migrations', () => {
  it('match the schema (no pending changes)', async () => {
    const metaDir = path.join(MIGRATIONS_DIR, 'meta');
    const journal = JSON.parse(fs.readFileSync(path.join(metaDir, '_journal.json'), 'utf8')) as {
      entries: Array<{ idx: number; tag: string }>;
    };
    const last = journal.entries.at(-1);
    expect(last, 'no migration committed').toBeDefined();
    const snapshotFile = path.join(metaDir, `${String(last?.idx).padStart(4, '0')}_snapshot.json`);
    const previous = JSON.parse(fs.readFileSync(snapshotFile, 'utf8'));
    const current = generateDrizzleJson(schema as Record<string, unknown>, previous.id);
    const pending = await generateMigration(previous, current);
    expect(pending, 'schema changed without a migration: run `npm run db:generate`').toEqual([]);
  });

  it('each journal entry has its SQL file', () => {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
      entries: Array<{ tag: string }>;
    };
    for (const entry of journal.entries) {
      expect(fs.existsSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`))).toBe(true);
    }
  });
});
