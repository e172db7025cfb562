import { describe, expect, it } from 'vitest';
import { type Access, decide, fromOf, type GuardSession } from './access.ts';

const CUSTOMER: Access = { kind: 'member', groups: [4] };
const ADMIN: Access = { kind: 'member', groups: [1] };
const UPGRADE: Access = { kind: 'member', groups: [4], deny: [16] };

const anonymous: GuardSession = { isAuthenticated: false, user: null };
const as = (group: number): GuardSession => ({ isAuthenticated: true, user: { group } });
const at = (pathname: string, state?: unknown, search = '', hash = '') => ({ pathname, search, hash, state });

describe('route guard (SPEC §2, §6)', () => {
  it('sends anonymous users to /signin keeping the requested location as from', () => {
    expect(decide(CUSTOMER, anonymous, at('/me/account', null, '?tab=1', '#x'))).toEqual({
      type: 'redirect',
      to: '/signin',
      state: { from: { pathname: '/me/account', search: '?tab=1', hash: '#x' } },
    });
    expect(decide({ kind: 'member' }, anonymous, at('/me')).type).toBe('redirect');
  });

  it('admits any signed-in user when no group is required', () => {
    expect(decide({ kind: 'member' }, as(0), at('/me'))).toEqual({ type: 'allow' });
    expect(decide({ kind: 'member', groups: [] }, as(16), at('/me'))).toEqual({ type: 'allow' });
  });

  it('admits a user holding at least one required group', () => {
    expect(decide(CUSTOMER, as(4), at('/me/settings'))).toEqual({ type: 'allow' });
    expect(decide(CUSTOMER, as(4 | 16), at('/me/settings'))).toEqual({ type: 'allow' });
    expect(decide(ADMIN, as(1 | 4), at('/me/admin'))).toEqual({ type: 'allow' });
    expect(decide({ kind: 'member', groups: [1, 16] }, as(16), at('/x'))).toEqual({ type: 'allow' });
  });

  it('sends users lacking every required group to /me', () => {
    expect(decide(ADMIN, as(4), at('/me/admin'))).toEqual({ type: 'redirect', to: '/me' });
    expect(decide(CUSTOMER, as(1), at('/callback/alpaca'))).toEqual({ type: 'redirect', to: '/me' });
    expect(decide(CUSTOMER, as(16), at('/me/settings'))).toEqual({ type: 'redirect', to: '/me' });
  });

  it('does not loop when /me itself is out of reach', () => {
    expect(decide(CUSTOMER, as(1), at('/me'))).toEqual({ type: 'forbidden' });
    expect(decide(CUSTOMER, as(0), at('/me/'))).toEqual({ type: 'forbidden' });
  });

  it('waits for the user after authentication', () => {
    expect(decide(CUSTOMER, { isAuthenticated: true, user: null }, at('/me'))).toEqual({ type: 'pending' });
  });

  it('public routes admit everyone', () => {
    expect(decide({ kind: 'public' }, anonymous, at('/terms-of-service'))).toEqual({ type: 'allow' });
    expect(decide({ kind: 'public' }, as(4), at('/terms-of-service'))).toEqual({ type: 'allow' });
  });

  it('guest routes send signed-in users to from, else /me', () => {
    expect(decide({ kind: 'guest' }, anonymous, at('/signin'))).toEqual({ type: 'allow' });
    expect(decide({ kind: 'guest' }, as(4), at('/signin'))).toEqual({ type: 'redirect', to: '/me' });
    const from = { from: { pathname: '/me/connector/alpaca', search: '?a=1', hash: '' } };
    expect(decide({ kind: 'guest' }, as(4), at('/signin', from))).toEqual({
      type: 'redirect',
      to: '/me/connector/alpaca?a=1',
    });
  });

  it('sends professional users away from the upgrade page', () => {
    expect(decide(UPGRADE, as(4), at('/me/account/upgrade'))).toEqual({ type: 'allow' });
    expect(decide(UPGRADE, as(4 | 16), at('/me/account/upgrade'))).toEqual({ type: 'redirect', to: '/me' });
    expect(decide(UPGRADE, as(4 | 16), at('/me/account/upgrade', { from: '/me/account' }))).toEqual({
      type: 'redirect',
      to: '/me/account',
    });
  });

  it('reads from as a location or a string, ignoring anything else', () => {
    expect(fromOf({ from: { pathname: '/me', search: '', hash: '#h' } })).toBe('/me#h');
    expect(fromOf({ from: '/me/settings' })).toBe('/me/settings');
    expect(fromOf({ from: 42 })).toBeNull();
    expect(fromOf(null)).toBeNull();
    expect(fromOf('x')).toBeNull();
  });
});
