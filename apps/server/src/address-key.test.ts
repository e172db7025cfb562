import { describe, expect, it } from 'vitest';
import { addressKey } from './address-key.ts';

describe('addressKey', () => {
  it('keys an IPv6 address by its /64, however it is written', () => {
    const key = addressKey('2001:db8:1:2::1');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe(key);
    expect(addressKey('2001:0DB8:0001:0002:0:0:0:9')).toBe(key);
    expect(addressKey('2001:db8:1:2::1%eth0')).toBe(key);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });

  it('keys IPv4 and IPv4-mapped IPv6 by the whole address', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('203.0.113.8')).not.toBe(addressKey('203.0.113.7'));
  });

  it('keeps anything else as it is', () => {
    expect(addressKey('')).toBe('');
    expect(addressKey('unknown')).toBe('unknown');
  });
});
