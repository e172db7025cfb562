// The signer against RFC 5849's own example (§1.2: the photos request, HMAC-SHA1), and the
// header it builds read back the way the fake reads it.
import { expect, it } from 'vitest';
import { authorizationHeader, hmacSha1, parseAuthorization, percentEncode, signatureBaseString } from './oauth1.ts';

it('signs RFC 5849’s example request to its published signature', () => {
  const url = new URL('http://photos.example.net/photos?file=vacation.jpg&size=original');
  const oauth = {
    oauth_consumer_key: 'dpf43f3p2l4k3l03',
    oauth_token: 'nnch734d00sl2jdk',
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: '137131202',
    oauth_nonce: 'chapoH',
  };
  const base = signatureBaseString('GET', url, oauth);
  expect(base).toBe(
    'GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03' +
      '%26oauth_nonce%3DchapoH%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131202' +
      '%26oauth_token%3Dnnch734d00sl2jdk%26size%3Doriginal',
  );
  expect(hmacSha1(base, 'kd94hf93k423kf44', 'pfkkdhi9sl3r4s00')).toBe('MdpQcU8iPSUjWoN/UDMsK2sui9I=');
});

it('encodes as RFC 3986 wants: reserved characters and spaces escaped, unreserved kept', () => {
  expect(percentEncode("a b+c/d=e&f*g!h'(i)~j-k.l_m")).toBe('a%20b%2Bc%2Fd%3De%26f%2Ag%21h%27%28i%29~j-k.l_m');
});

it('writes E*TRADE’s header (realm first, values encoded) and reads it back', () => {
  const url = new URL('https://api.etrade.com/v1/accounts/list.json');
  const header = authorizationHeader(
    'GET',
    url,
    { consumerKey: 'key', consumerSecret: 'secret', token: 'to/ken=', tokenSecret: 'ts' },
    1_781_015_470_301,
  );
  expect(header).toMatch(
    /^OAuth realm="",oauth_consumer_key="key",oauth_token="to%2Fken%3D",oauth_nonce="[0-9a-f]{32}",/,
  );
  const params = parseAuthorization(header);
  expect(params).toMatchObject({
    realm: '',
    oauth_token: 'to/ken=',
    oauth_timestamp: '1781015470',
    oauth_signature_method: 'HMAC-SHA1',
  });
  const { oauth_signature: signature, realm: _realm, ...signed } = params ?? {};
  expect(signature).toBe(hmacSha1(signatureBaseString('GET', url, signed), 'secret', 'ts'));
});
