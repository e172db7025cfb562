import { UNAVAILABLE_MESSAGE } from '@router/shared/outage';
import { CombinedError } from '@urql/core';
import { describe, expect, it } from 'vitest';
import { errorMessage } from './error-message.ts';
import { ServerUnreachableError, UNREACHABLE_TEXT, unavailableText } from './unreachable.ts';

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

describe('errorMessage when the server cannot serve', () => {
  it('gives the shared sentence for a network error, bare or in a CombinedError', () => {
    const down = new ServerUnreachableError(UNREACHABLE_TEXT);
    expect(errorMessage(down)).toBe(UNREACHABLE_TEXT);
    expect(errorMessage(new CombinedError({ networkError: down }))).toBe(UNREACHABLE_TEXT);
    expect(errorMessage(new CombinedError({ networkError: new TypeError('Failed to fetch') }))).toBe(UNREACHABLE_TEXT);
  });

  it("says when to retry a GraphQL error's retryAfter, in the shared words for the database down", () => {
    const databaseDown = { message: UNAVAILABLE_MESSAGE, extensions: { code: 'SERVICE_UNAVAILABLE', retryAfter: 5 } };
    expect(errorMessage(databaseDown)).toBe(unavailableText(5));
    expect(errorMessage(new CombinedError({ graphQLErrors: [databaseDown] }))).toBe(unavailableText(5));
    const limited = { message: 'Too many attempts, please wait', extensions: { code: 'RATE_LIMITED', retryAfter: 30 } };
    expect(errorMessage(limited)).toBe('Too many attempts, please wait. Please try again in 30 seconds.');
  });

  it('does not repeat itself when the message already says to try again', () => {
    const limited = {
      message: 'Too many sign-in attempts, please wait a minute and try again',
      extensions: { code: 'RATE_LIMITED', retryAfter: 47 },
    };
    expect(errorMessage(limited)).toBe('Too many sign-in attempts, please wait a minute and try again');
    expect(errorMessage(new CombinedError({ graphQLErrors: [limited] }))).toBe(limited.message);
    const hour = { message: 'Too many attempts, please Try again in an hour.', extensions: { retryAfter: 3600 } };
    expect(errorMessage(hour)).toBe(hour.message);
  });
});
