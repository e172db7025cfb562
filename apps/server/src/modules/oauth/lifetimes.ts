// How long the provider's tokens live: its configuration (provider.ts) and the API reference that
// tells developers (http/api/openapi.ts, which must not load oidc-provider) read the same numbers.
const DAY_S = 86_400;

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * DAY_S;
export const GRANT_TTL_S = 365 * DAY_S;
