import { describe, expect, it } from 'vitest';
import { isServerPath, RECALL_PATH, safePath, signinTarget } from './redirects.ts';

const origin = 'http://localhost:3000';

describe('sign-in redirects (SPEC §4)', () => {
  it('keeps same-origin paths and refuses other hosts', () => {
    expect(safePath('/me/account?x=1#a', origin)).toBe('/me/account?x=1#a');
    expect(safePath('http://localhost:3000/me', origin)).toBe('/me');
    expect(safePath('https://evil.example/me', origin)).toBeNull();
    expect(safePath('//evil.example/me', origin)).toBeNull();
    expect(safePath('javascript:alert(1)', origin)).toBeNull();
    expect(safePath('', origin)).toBeNull();
  });

  it('goes to the redirect parameter first, then recall for an email, then from, then /me', () => {
    expect(signinTarget('?redirect=%2Fme%2Faccount', '/me/settings', 'a@b.c')).toBe('/me/account');
    expect(signinTarget('', '/me/settings', 'a@b.c')).toBe(`${RECALL_PATH}?from=%2Fme%2Fsettings`);
    expect(signinTarget('', null, 'a@b.c')).toBe(RECALL_PATH);
    expect(signinTarget('', '/me/settings', null)).toBe('/me/settings');
    expect(signinTarget('?redirect=https%3A%2F%2Fevil.example', null, null)).toBe('/me');
  });

  it('tells server paths from app paths', () => {
    expect(isServerPath('/api/oauth/authorize?x=1')).toBe(true);
    expect(isServerPath('/me/api')).toBe(false);
  });
});
