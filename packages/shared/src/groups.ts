// SPEC §6 / §9 group bits. Without zod, so the web app's first load can import it alone
// ('@router/shared/groups') and stay free of zod (see apps/web/src/lib/zod-config.ts).
export const GROUP = { ADMIN: 1, CUSTOMER: 4, PROFESSIONAL: 16 } as const;
