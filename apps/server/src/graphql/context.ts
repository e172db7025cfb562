// Per-request GraphQL context: the services, who is calling, and from where.
import type { LiveHub } from '../modules/live/hub.ts';
import type { Services } from '../services.ts';

/** The authenticated caller. `actingUserId` differs from `userId` in admin proxy mode (X-User). */
export interface Viewer {
  userId: number;
  userKey: string;
  group: number;
  /** The session or API token row used, for sign-out. */
  sessionId: number;
  /** The administrator behind a proxied request, when X-User was honoured. */
  proxiedBy?: number;
  /** Authenticated by a personal API token (trading automation), not a dashboard sign-in. */
  apiToken?: true;
}

export interface GraphQLContext {
  services: Services;
  viewer: Viewer | null;
  requestId: string;
  ip: string;
  userAgent: string;
  /** The browser's Accept-Language: the currency a price sold in several is shown in. */
  acceptLanguage: string;
  /** The raw bearer token, only for sign-out; never logged. */
  bearer: string | null;
  /** Live updates of this instance (the `live` subscription). */
  live: LiveHub;
  /**
   * The caller of this request as of now (the same bearer and X-User resolved again; null when
   * refused): a long-lived stream asks before each event, so a session signed out, reset or
   * revoked, or a proxy ended, ends it.
   */
  reauthenticate: () => Promise<Viewer | null>;
}
