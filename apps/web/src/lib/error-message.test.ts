import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message.ts';

describe('errorMessage', () => {
  it('reads Error instances and urql plain-object GraphQL errors, without the urql prefix', () => {
    expect(errorMessage(new Error('[Network] Failed to fetch'))).toBe('Failed to fetch');
    expect(errorMessage({ message: '[GraphQL] Name taken', extensions: {} })).toBe('Name taken');
    expect(errorMessage(new Error('Plain'))).toBe('Plain');
  });

  it('falls back where there is no message', () => {
    expect(errorMessage(undefined)).toBe('Error');
    expect(errorMessage(new Error('[GraphQL] '), 'Error...')).toBe('Error...');
    expect(errorMessage({ message: 42 }, 'Failed')).toBe('Failed');
  });
});
