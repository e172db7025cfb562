/**
 * The server's words when a dependency (its database) is out of reach: REST's 503 body and
 * GraphQL's SERVICE_UNAVAILABLE error. The web app shows its own sentence with the wait instead.
 */
export const UNAVAILABLE_MESSAGE = 'Service temporarily unavailable, please retry';
