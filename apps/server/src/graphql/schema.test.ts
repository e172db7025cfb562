// Fails when schema.graphql (read by the web app's codegen) is stale: run `npm run schema:print`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { printedSchema } from './schema.ts';

const committed = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schema.graphql');

describe('schema.graphql', () => {
  it('is up to date with the Pothos schema', () => {
    expect(fs.readFileSync(committed, 'utf8'), 'stale: run `npm run schema:print`').toBe(printedSchema());
  });
});
