// The OpenAPI document tells what the server does: the idempotency header under its canonical
// name (`Idempotency-Key`, as the descriptions and every client send it; headers are
// case-insensitive, so the server takes any case), and example account ids in the format the
// server gives and takes (connection key and broker account id, base64url).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { accountId } from '../../modules/api/accounts.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface Doc {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
  components: { schemas: Record<string, { examples?: Record<string, unknown>[] }> };
}

const document = async () => (await t.app.inject({ url: '/api/openapi.json' })).json<Doc>();

it('names the idempotency header Idempotency-Key', async () => {
  const doc = await document();
  const place = doc.paths['/api/v1/accounts/{id}/orders']?.post;
  const headers = (place?.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
  expect(headers).toEqual(['Idempotency-Key']);
});

it('gives example account ids the server would take', async () => {
  const { schemas } = (await document()).components;
  const ids = [schemas.Account?.examples?.[0]?.id, schemas.Order?.examples?.[0]?.accountId];
  for (const id of ids) {
    const [connectorKey = '', brokerAccountId = '', ...rest] = Buffer.from(String(id), 'base64url')
      .toString()
      .split('\n');
    expect(rest).toEqual([]);
    expect(connectorKey).toMatch(/^[0-9A-Za-z]{16}$/);
    expect(accountId(connectorKey, brokerAccountId)).toBe(id);
  }
});
