import { describe, expect, it } from 'vitest';
import { credentialLabel, isMaskedCredential } from './credential-fields.ts';

describe('connect form fields (SPEC §2)', () => {
  it('labels are the camel-case name split into words', () => {
    expect(credentialLabel('apiKeyId')).toBe('Api Key Id');
    expect(credentialLabel('password')).toBe('Password');
    expect(credentialLabel('accountNumber')).toBe('Account Number');
    expect(credentialLabel('api_secret')).toBe('Api Secret');
    expect(credentialLabel('privateKey')).toBe('Private Key');
  });

  it('masks passwords, secrets and private keys, not key ids', () => {
    expect(isMaskedCredential('password')).toBe(true);
    expect(isMaskedCredential('tradingPassword')).toBe(true);
    expect(isMaskedCredential('apiSecret')).toBe(true);
    expect(isMaskedCredential('secret')).toBe(true);
    expect(isMaskedCredential('privateKey')).toBe(true);
    expect(isMaskedCredential('apiKeyId')).toBe(false);
    expect(isMaskedCredential('accountNumber')).toBe(false);
  });

  it('masks access tokens (Tradier, IBKR): a token places orders as the trader, like a password', () => {
    expect(isMaskedCredential('accessToken')).toBe(true);
    expect(isMaskedCredential('signaturePrivateKey')).toBe(true);
    expect(isMaskedCredential('consumerKey')).toBe(false);
  });
});
