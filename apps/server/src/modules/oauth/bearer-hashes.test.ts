// Migration 0032: applications' codes and tokens stored before it (their own value as id, and as
// jti) are kept as the adapter keeps them now, under their SHA-256: they go on working, and the
// database no longer holds them. Other rows (grants, the signing key) are left as they were.
import { describe, expect, it } from 'vitest';
import { databaseBefore } from '../../../test/migrations-before.ts';
import { runMigrations } from '../../db/migrate.ts';
import { hashToken } from '../auth/tokens.ts';

describe('migration 0032', () => {
  it('keeps codes, access and refresh tokens stored before it under their hash, without their jti', async () => {
    const { pool, drop } = await databaseBefore('oauth_bearer_hashes', '0032_oauth_bearer_hashes');
    const token = (kind: string) => `${kind}-Z9_x-${'q'.repeat(30)}`;
    try {
      for (const kind of ['AuthorizationCode', 'AccessToken', 'RefreshToken', 'Grant']) {
        await pool.query(`insert into oidc_payloads (kind, id, payload, grant_id) values ($1, $2, $3, 'grant-1')`, [
          kind,
          token(kind),
          { jti: token(kind), kind, grantId: 'grant-1' },
        ]);
      }
      await runMigrations(pool);
      const { rows } = await pool.query<{ kind: string; id: string; payload: Record<string, unknown> }>(
        'select kind, id, payload from oidc_payloads order by kind',
      );
      expect(rows).toEqual([
        {
          kind: 'AccessToken',
          id: hashToken(token('AccessToken')),
          payload: { kind: 'AccessToken', grantId: 'grant-1' },
        },
        {
          kind: 'AuthorizationCode',
          id: hashToken(token('AuthorizationCode')),
          payload: { kind: 'AuthorizationCode', grantId: 'grant-1' },
        },
        { kind: 'Grant', id: token('Grant'), payload: { jti: token('Grant'), kind: 'Grant', grantId: 'grant-1' } },
        {
          kind: 'RefreshToken',
          id: hashToken(token('RefreshToken')),
          payload: { kind: 'RefreshToken', grantId: 'grant-1' },
        },
      ]);
    } finally {
      await drop();
    }
  });
});
