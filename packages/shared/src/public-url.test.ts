import { describe, expect, it } from 'vitest';
import { publicUrlProblems } from './public-url.ts';

describe('publicUrlProblems', () => {
  it.each([
    'https://router.example.com/hook/abc',
    'http://router.example.com/hook/abc',
    'https://router.example.com:443/hook/abc',
    'http://router.example.com:80/hook/abc',
    'https://203.0.113.9/hook/abc',
    'https://172.32.0.1/hook/abc',
  ])('%s is reachable', (url) => {
    expect(publicUrlProblems(url)).toEqual([]);
  });

  it.each([
    ['http://localhost:3000/hook/abc', ['private-host', 'port']],
    ['http://127.0.0.1/hook/abc', ['private-host']],
    ['http://192.168.1.20/hook/abc', ['private-host']],
    ['http://10.0.0.5/hook/abc', ['private-host']],
    ['http://172.20.1.1/hook/abc', ['private-host']],
    ['http://100.100.1.1/hook/abc', ['private-host']],
    ['http://169.254.1.1/hook/abc', ['private-host']],
    ['http://nas/hook/abc', ['private-host']],
    ['http://router.local/hook/abc', ['private-host']],
    ['http://app.localhost/hook/abc', ['private-host']],
    ['http://[::1]:8080/hook/abc', ['private-host', 'port']],
    ['http://[fd12::1]/hook/abc', ['private-host']],
    ['https://router.example.com:8443/hook/abc', ['port']],
    ['ftp://router.example.com/hook/abc', ['invalid']],
    ['not a url', ['invalid']],
  ])('%s: %j', (url, problems) => {
    expect(publicUrlProblems(url)).toEqual(problems);
  });
});
