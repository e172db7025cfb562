import { describe, expect, it } from 'vitest';
import './zod-config.ts';

describe('zod configuration', () => {
  it('makes zod jitless (no eval under the Content Security Policy) before zod loads', async () => {
    const { config } = await import('zod');
    expect(config().jitless).toBe(true);
  });
});
