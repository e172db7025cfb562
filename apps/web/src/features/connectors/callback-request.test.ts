import type { Provider } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { TEST_PROVIDERS } from '../../test/connectors.ts';
import { ETRADE_FAILURE_MESSAGE, findCallbackProvider, readCallback } from './callback-request.ts';

const providers = new Map((TEST_PROVIDERS as unknown as Provider[]).map((p) => [p.name, p]));
const get = (name: string) => providers.get(name)!;

describe('broker callback (SPEC §2)', () => {
  it('finds the provider by route name, else by the referrer base', () => {
    expect(findCallbackProvider(providers, 'schwab', '')?.name).toBe('schwab');
    expect(findCallbackProvider(providers, 'nope', 'https://us.etrade.com/x')).toBeUndefined();
    expect(findCallbackProvider(providers, undefined, 'https://us.etrade.com/e/t/etws/authorize')?.name).toBe('etrade');
    expect(findCallbackProvider(providers, undefined, 'https://elsewhere.example/')).toBeUndefined();
    expect(findCallbackProvider(providers, undefined, '')).toBeUndefined();
  });

  it("reads the first listed credential ('code' by default) and state", () => {
    expect(readCallback(get('schwab'), '?code=C0.abc%40&session=x&state=s1')).toEqual({
      kind: 'activate',
      credentials: ['C0.abc@', 's1'],
    });
    expect(readCallback(get('etrade'), '?oauth_verifier=V123')).toEqual({ kind: 'activate', credentials: ['V123'] });
    // OAuth 1.0a: the request token E*TRADE echoes names the attempt in place of a state.
    expect(readCallback(get('etrade'), '?oauth_token=RT%2B1&oauth_verifier=V123')).toEqual({
      kind: 'activate',
      credentials: ['V123', 'RT+1'],
    });
    const unlisted = { ...get('schwab'), authentication: { type: 'open', credentials: [] } } as unknown as Provider;
    expect(readCallback(unlisted, '?code=xyz')).toEqual({ kind: 'activate', credentials: ['xyz'] });
  });

  it('sends nothing for a provider connected with its form (the page opened by hand)', () => {
    expect(readCallback(get('paper'), '?code=xyz')).toEqual({ kind: 'form' });
  });

  it('leaves without the credential', () => {
    expect(readCallback(get('schwab'), '?state=s1')).toEqual({ kind: 'leave' });
    expect(readCallback(get('etrade'), '?code=abc')).toEqual({ kind: 'leave' });
  });

  it("fails an etrade verifier ending with 'already been Authorized'", () => {
    expect(readCallback(get('etrade'), '?oauth_verifier=Token%20has%20already%20been%20Authorized')).toEqual({
      kind: 'failure',
      message: ETRADE_FAILURE_MESSAGE,
    });
    expect(ETRADE_FAILURE_MESSAGE).toBe('Token generation failure. Please try again');
  });
});
