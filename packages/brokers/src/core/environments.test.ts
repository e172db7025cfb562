import { describe, expect, it } from 'vitest';
import { connectToEnvironment, environmentBaseUrl, isBaseUrlOverridden } from './environments.ts';
import { BrokerError } from './errors.ts';

const envs = { live: 'https://api.example', demo: 'https://paper.example' };
const refused = () => new BrokerError('AuthenticationError', 'Acme', 'bad key');

describe('broker environments', () => {
  it('serves each environment from its origin unless the base URL is overridden', () => {
    expect(environmentBaseUrl({ baseUrl: envs.live }, envs, 'demo')).toBe(envs.demo);
    expect(environmentBaseUrl({ baseUrl: envs.live }, envs, 'live')).toBe(envs.live);
    expect(environmentBaseUrl({ baseUrl: 'http://127.0.0.1:9' }, envs, 'demo')).toBe('http://127.0.0.1:9');
    expect(isBaseUrlOverridden({ baseUrl: envs.demo }, envs)).toBe(false);
  });

  it('tries the hinted environment first, the other on refused credentials', async () => {
    const tried: string[] = [];
    const found = await connectToEnvironment({ baseUrl: envs.live }, envs, 'live', async (url, kind) => {
      tried.push(url);
      if (kind === 'live') throw refused();
      return 'account';
    });
    expect(tried).toEqual([envs.live, envs.demo]);
    expect(found).toEqual({ kind: 'demo', baseUrl: envs.demo, overridden: false, result: 'account' });
  });

  it('stops at other errors, and at the last refusal', async () => {
    const down = new BrokerError('BrokerUnavailable', 'Acme', 'HTTP 502');
    await expect(connectToEnvironment({ baseUrl: envs.live }, envs, 'demo', () => Promise.reject(down))).rejects.toBe(
      down,
    );
    await expect(
      connectToEnvironment({ baseUrl: envs.live }, envs, 'demo', () => Promise.reject(refused())),
    ).rejects.toMatchObject({
      kind: 'AuthenticationError',
    });
  });

  it('tries once where the base URL pins one place', async () => {
    let calls = 0;
    const attempt = async () => {
      calls++;
      throw refused();
    };
    await expect(connectToEnvironment({ baseUrl: 'http://127.0.0.1:9' }, envs, 'demo', attempt)).rejects.toThrow();
    await expect(connectToEnvironment({ baseUrl: envs.demo }, envs, 'live', attempt)).rejects.toThrow();
    expect(calls).toBe(2);
    const pinned = await connectToEnvironment({ baseUrl: 'http://127.0.0.1:9' }, envs, 'demo', async () => 1);
    expect(pinned).toMatchObject({ kind: 'demo', overridden: true });
  });
});
