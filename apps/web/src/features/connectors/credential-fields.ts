// The connect form's fields from the provider's credential names (SPEC §2 Connect form).

/** 'apiKeyId' → 'Api Key Id'; 'api_secret' → 'Api Secret'. */
export function credentialLabel(name: string): string {
  return name
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/**
 * SPEC masks fields named password; secrets, private keys and access tokens (each places orders
 * as the trader) are masked as users expect.
 */
export function isMaskedCredential(name: string): boolean {
  return /password|secret|privatekey|private_key|token/i.test(name);
}
