import { describe, expect, it } from 'vitest';
import { isErrorPage, messageOf } from './http-errors.ts';

describe('messageOf and isErrorPage', () => {
  it('reads a broker’s XML error; an HTML page is still a page', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Error><code>100</code><message>Account key does not belong to user</message></Error>';
    expect(messageOf(xml)).toBe('Account key does not belong to user');
    expect(isErrorPage(xml)).toBe(false);
    expect(messageOf('<Error><message>oauth_problem=token_expired</message></Error>')).toBe(
      'oauth_problem=token_expired',
    );
    const page = '<!DOCTYPE html><html><body><h1>403 Forbidden</h1><p class="message">denied</p></body></html>';
    expect(messageOf(page)).toBeUndefined();
    expect(isErrorPage(page)).toBe(true);
    expect(isErrorPage('<html><body><message>proxy</message></body></html>')).toBe(true);
    expect(isErrorPage(undefined)).toBe(true);
  });
});
