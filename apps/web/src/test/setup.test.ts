import { describe, expect, it, vi } from 'vitest';

describe('test setup', () => {
  it('gives vi.waitFor 10 s, as findBy* and waitFor, not 1 s', async () => {
    const start = Date.now();
    await vi.waitFor(() => expect(Date.now() - start).toBeGreaterThan(1_200), { interval: 100 });
  });
});
