import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRELOAD, serverNodeArgs, V8_FLAGS } from './node-args.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const scripts = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;

describe('server node arguments', () => {
  const command = `node ${[...V8_FLAGS, '--import', `./${path.relative(root, PRELOAD)}`].join(' ')} apps/server/src/main.ts`;

  it('are the ones `npm start` uses and the docs give', () => {
    expect(scripts.start).toContain(command);
    for (const doc of ['README.md', 'docs/ARCHITECTURE.md']) {
      expect(fs.readFileSync(path.join(root, doc), 'utf8').replace(/\s+/g, ' '), doc).toContain(command);
    }
  });

  it('name the preload by an absolute URL, so they work from any directory', () => {
    expect(serverNodeArgs().at(-1)).toMatch(/^--import=file:\/\/\/.*\/apps\/server\/src\/preload\.mjs$/);
  });
});
