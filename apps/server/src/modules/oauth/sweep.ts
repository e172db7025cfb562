// What the provider never reads again (expired codes, tokens and interactions, the tokens of an
// ended grant) is deleted every 10 minutes, in batches (a backlog never makes one long delete):
// a delete of what is dead, so instances running it together do no harm.
import type { FastifyInstance } from 'fastify';
import { sweepExpiredOidc } from '../../db/repositories/oidc.repository.ts';
import type { Services } from '../../services.ts';

const EVERY_MS = 10 * 60_000;
const BATCH = 1_000;
/** Batches per pass at most: a larger backlog is carried on by the next pass. */
const MAX_BATCHES = 100;

/** One pass: batches of `batch` rows until one comes back short; how many rows went. */
export async function sweepOidc(
  services: Pick<Services, 'db'>,
  { batch = BATCH, stopping }: { batch?: number; stopping?: AbortSignal } = {},
): Promise<number> {
  let total = 0;
  for (let round = 0; round < MAX_BATCHES && !stopping?.aborted; round++) {
    const deleted = await sweepExpiredOidc(services.db, batch);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}

export function startOidcSweeper(app: FastifyInstance, services: Services): void {
  const stopping = new AbortController();
  const timer = setInterval(() => {
    sweepOidc(services, { stopping: stopping.signal }).catch((err: unknown) =>
      services.log.warn({ err }, 'oauth sweep failed'),
    );
  }, EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    stopping.abort();
    clearInterval(timer);
  });
}
