// Zod schemas and constants shared by the web forms and the server (DESIGN.md "Style").

export * from './action-description.ts';
export * from './admin.ts';
export * from './auth.ts';
export * from './billing.ts';
export * from './connectors.ts';
export * from './credits.ts';
export * from './json.ts';
export * from './notifications.ts';
export * from './outage.ts';
export * from './platforms.ts';
export * from './public-url.ts';
export * from './security.ts';
export * from './stats.ts';
export * from './user-app.ts';
export * from './user-token.ts';
