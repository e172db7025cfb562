// Footer destinations (SPEC §2 Navigation); a self-hosted install points them at its own pages.
export const FAQ_URL: string = import.meta.env.VITE_FAQ_URL ?? '/me/documentation';
export const SUPPORT_URL: string =
  import.meta.env.VITE_SUPPORT_URL ?? `mailto:support@${globalThis.location?.hostname ?? 'localhost'}`;
export const PRIVACY_URL: string = import.meta.env.VITE_PRIVACY_URL ?? '/terms-of-service#privacy';
export const TERMS_PATH = '/terms-of-service';
export const PRODUCT_NAME = 'Signal Router';
