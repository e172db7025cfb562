// What the HTTP layer loads, lazily, with the first OAuth request (http/oauth.ts).
export { completeConsent, consentDetails } from './interaction.ts';
export { legacyRegister } from './legacy-register.ts';
export { continuePage, errorPage } from './pages.ts';
export { oauthProvider } from './provider.ts';
