// The sweep deletes what the provider never reads again, in batches: expired rows, and the tokens
// of a grant that has ended (spent refresh tokens included); a spent refresh token of a live
// grant stays, so presented again it still ends the grant (reuse detection).
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmedUser } from '../../../test/identity.ts';
import {
  discover,
  grantAccess,
  type OAuthServer,
  professionalWithApp,
  startAuthorization,
  startOAuthServer,
} from '../../../test/oauth.ts';
import { sweepExpiredOidc } from '../../db/repositories/oidc.repository.ts';
import { hashToken } from '../auth/tokens.ts';
import { sweepOidc } from './sweep.ts';

let server: OAuthServer;
let config: client.Configuration;
beforeAll(async () => {
  server = await startOAuthServer();
  const { app } = await professionalWithApp(server, 'sweep-dev@example.test');
  config = await discover(server, app);
});
afterAll(() => server.close());

/** A user's grant, its tokens refreshed once: the first refresh token spent, the second live. */
async function refreshedGrant(email: string) {
  const user = await confirmedUser(server, email);
  const start = await startAuthorization(config, server, { scope: 'accounts:read' });
  const tokens = await client.authorizationCodeGrant(config, await grantAccess(server, start, user.token), {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
  });
  const next = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
  const grantId = await rowOf(tokens.refresh_token ?? '').then((row) => row?.grant_id ?? '');
  return { spent: tokens.refresh_token ?? '', live: next.refresh_token ?? '', grantId };
}

async function rowOf(refreshToken: string) {
  const { rows } = await server.services.db.$client.query<{ grant_id: string; consumed_at: Date | null }>(
    `select grant_id, consumed_at from oidc_payloads where kind = 'RefreshToken' and id = $1`,
    [hashToken(refreshToken)],
  );
  return rows[0];
}

const rowsOfGrant = async (grantId: string) =>
  (
    await server.services.db.$client.query<{ kind: string }>(
      `select kind from oidc_payloads where grant_id = $1 or (kind = 'Grant' and id = $1) order by kind`,
      [grantId],
    )
  ).rows.map((row) => row.kind);

describe('the OAuth sweep', () => {
  it('deletes the tokens of an expired grant, its spent refresh tokens among them', async () => {
    const ended = await refreshedGrant('sweep-ended@example.test');
    const live = await refreshedGrant('sweep-live@example.test');
    expect((await rowOf(ended.spent))?.consumed_at).toBeInstanceOf(Date);
    await server.services.db.$client.query(
      `update oidc_payloads set expires_at = now() - interval '1 second' where kind = 'Grant' and id = $1`,
      [ended.grantId],
    );

    await sweepExpiredOidc(server.services.db, 1_000);
    expect(await rowsOfGrant(ended.grantId)).toEqual([]);
    // The live grant keeps everything, its spent refresh token too: presented again, it ends the grant.
    expect(await rowOf(live.spent)).toMatchObject({ consumed_at: expect.any(Date) });
    await expect(client.refreshTokenGrant(config, live.spent)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await rowsOfGrant(live.grantId)).toEqual([]);
  });

  it('deletes a backlog of expired rows in batches, all of it in one pass', async () => {
    await server.services.db.$client.query(
      `insert into oidc_payloads (kind, id, payload, expires_at)
       select 'Interaction', 'sweep-backlog-' || n, '{}'::jsonb, now() - interval '1 minute' from generate_series(1, 7) n`,
    );
    expect(await sweepOidc(server.services, { batch: 2 })).toBeGreaterThanOrEqual(7);
    const { rows } = await server.services.db.$client.query(
      `select 1 from oidc_payloads where id like 'sweep-backlog-%' or expires_at <= now()`,
    );
    expect(rows).toEqual([]);
  });
});
