import { describe, expect, it } from 'vitest';
import { isCallbackUrl, userAppRedirectUrlSchema } from './index.ts';

describe('SPEC §5 callback URL: https with a host and a top-level domain', () => {
  it('takes an internationalized top-level domain, as typed or in punycode', () => {
    for (const url of ['https://shop.рф/oauth', 'https://shop.xn--p1ai/oauth', 'https://journal.みんな/cb']) {
      expect(userAppRedirectUrlSchema.safeParse(url).success, url).toBe(true);
    }
  });

  it("still answers 'Invalid URL' without a top-level domain or https", () => {
    for (const url of [
      'https://intranet/cb',
      'https://1.2.3.4/cb',
      'https://example.c0m/cb',
      'https://example.xn--/cb',
      'http://shop.рф/cb',
    ]) {
      expect(isCallbackUrl(url), url).toBe(false);
      expect(userAppRedirectUrlSchema.safeParse(url).error?.issues[0]?.message, url).toBe('Invalid URL');
    }
  });
});
