import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRELOAD, serverNodeArgs, V8_FLAGS } from './node-args.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const scripts = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;

describe('server node arguments', () => {
  it('are the ones `npm start` uses', () => {
    const preload = `./${path.relative(root, PRELOAD)}`;
    expect(scripts.start).toContain(`node ${[...V8_FLAGS, '--import', preload].join(' ')} apps/server/src/main.ts`);
  });

  it('name the preload by an absolute URL, so they work from any directory', () => {
    expect(serverNodeArgs().at(-1)).toMatch(/^--import=file:\/\/\/.*\/apps\/server\/src\/preload\.mjs$/);
  });
});
