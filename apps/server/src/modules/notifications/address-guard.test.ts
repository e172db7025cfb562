// Which addresses webhooks may reach, and that the guard judges every resolved address.
import { describe, expect, it, vi } from 'vitest';
import { isForbiddenAddress, isPrivateHostname, resolveTargets } from './address-guard.ts';

describe('isForbiddenAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254', // AWS, GCP, Azure metadata
    '100.64.0.1', // CGNAT
    '100.100.100.200', // Alibaba metadata
    '168.63.129.16', // Azure platform endpoint
    '0.0.0.0',
    '224.0.0.251', // multicast
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254', // AWS metadata over IPv6
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1', // the same, in hex
    '::ffff:169.254.169.254',
    '64:ff9b::10.0.0.1', // NAT64 of a private address
    '2002:c0a8:0101::1', // 6to4 of 192.168.1.1
    '[::1]',
    'fe80::1%eth0',
    '::127.0.0.1', // IPv4-compatible (::/96)
    '::7f00:1',
    '::10.0.0.1',
    '::8.8.8.8',
    '64:ff9b:1::a00:1', // NAT64 local use (64:ff9b:1::/48)
    '64:ff9b:1::8.8.8.8',
    '::ffff:0:127.0.0.1', // IPv4-translated (::ffff:0:0:0/96)
    '::ffff:0:a00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '64:ff9b::a00:1',
    '64:ff9b::198.18.0.1',
    '::ffff:100.64.0.1',
    '0.1.2.3',
    '100.127.255.255',
    '198.19.1.1',
    '239.1.1.1',
    'ff05::2',
    'fd12::1',
    'febf::1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::6810:85e5',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
  ])('allows %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('isPrivateHostname', () => {
  it.each([
    'localhost',
    'api.localhost',
    'printer.local',
    'metadata.google.internal',
    'router.home.arpa',
    '10.0.0.1',
    '[::1]',
  ])('%s is private', (host) => expect(isPrivateHostname(host)).toBe(true));
  it.each(['hooks.example.com', '8.8.8.8', '[2606:4700::1]'])('%s is not', (host) =>
    expect(isPrivateHostname(host)).toBe(false),
  );
});

describe('resolveTargets', () => {
  it('refuses a public name that resolves to a private address, unless allowed', async () => {
    const lookup = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
    await expect(resolveTargets('rebind.example.com', false, lookup)).rejects.toThrow(
      '127.0.0.1 is a private or reserved address',
    );
    await expect(resolveTargets('rebind.example.com', true, lookup)).resolves.toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
  });

  it('refuses a name mixing public and private answers, and takes IP literals without resolving', async () => {
    const lookup = vi.fn(async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '::1', family: 6 as const },
    ]);
    await expect(resolveTargets('mixed.example.com', false, lookup)).rejects.toThrow('::1');
    await expect(resolveTargets('[::1]', false, lookup)).rejects.toThrow('::1');
    expect(await resolveTargets('93.184.215.14', false, lookup)).toEqual([{ address: '93.184.215.14', family: 4 }]);
    expect(lookup).toHaveBeenCalledTimes(1);
  });
});
