// Browser journeys run against the real server, started as `npm start` starts it (embedded
// PostgreSQL in a fresh DATA_DIR, the built web app), with mail written to the log.
import type { TestProject } from 'vitest/node';
import { startSchwabFake } from '../packages/brokers/src/adapters/schwab/fake.ts';
import { E2E_ADMIN_EMAIL } from './support/admin.ts';
import { startE2eServer } from './support/server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverLogFile: string;
    /** The server's DATA_DIR: journeys reach its embedded PostgreSQL for what no screen does. */
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  // Schwab's protocol fake on loopback, for the OAuth popup journey (e2e/connectors.test.ts).
  const schwab = await startSchwabFake({ clientId: 'e2e-schwab-app', clientSecret: 'e2e-schwab-secret' });
  const server = await startE2eServer({
    SCHWAB_BASE_URL: schwab.baseUrl,
    SCHWAB_CLIENT_ID: 'e2e-schwab-app',
    SCHWAB_CLIENT_SECRET: 'e2e-schwab-secret',
    ADMIN_EMAILS: E2E_ADMIN_EMAIL,
    // Users made through the API sign up from addresses of their own (support/users.ts).
    TRUST_PROXY: 'true',
    // Contact Support in the footer, the FAQ and the privacy policy (e2e/public-pages.test.ts).
    SUPPORT_EMAIL: 'support@e2e.example',
    // Notification webhooks to a receiver on loopback (e2e/notifications.test.ts).
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    ...(process.env.E2E_ENV ? JSON.parse(process.env.E2E_ENV) : {}),
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('serverLogFile', server.logFile);
  project.provide('dataDir', server.dataDir);
  return async () => {
    await server.stop();
    await schwab.close();
  };
}
