// actions / action through GraphQL: newest first, paging without skips or repeats across rows
// sharing a millisecond, code filter, search over request and description, caller scoping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gqlAs, insertAction } from '../../../test/activity-fixtures.ts';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';

interface Action {
  id: number;
  code: string;
  address: string | null;
  addressLabel: string | null;
  metadata: string;
  createdAt: number;
  description: string;
}

const FIELDS = 'id code address addressLabel metadata createdAt description';
const ACTIONS = `query($code: String, $createdAtFrom: Float, $search: String, $limit: Int) {
  actions(code: $code, createdAtFrom: $createdAtFrom, search: $search, limit: $limit) { ${FIELDS} }
}`;
const ACTION = `query($id: Int!) { action(id: $id) { ${FIELDS} } }`;
const TRADINGVIEW = '52.89.214.238';

let t: TestApp;
let a: { id: number; headers: Record<string, string> };
let b: { id: number; headers: Record<string, string> };
/** User A's action ids, newest first (created_at desc, id desc). */
let expected: number[];
let otherId: number;

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
  a = await insertTestUser(t.services, 'a@example.test');
  b = await insertTestUser(t.services, 'b@example.test');
  const base = Date.parse('2025-03-01T12:00:00.000Z');
  // 46 actions in groups of three per millisecond (two of them at the very same microsecond),
  // so page boundaries fall inside a millisecond.
  for (let i = 0; i < 46; i++) {
    const micros = i % 3 === 0 ? 0 : 250;
    const createdAt = new Date(base - Math.floor(i / 3))
      .toISOString()
      .replace('Z', `${String(micros).padStart(3, '0')}Z`);
    const failed = i % 5 === 0;
    await insertAction(t, {
      userId: a.id,
      code: 'Order',
      address: i % 2 === 0 ? TRADINGVIEW : '10.0.0.1',
      createdAt,
      metadata: {
        shortKey: `hook${i}`,
        providerName: 'paper',
        accountId: 'P1',
        request: { symbol: i % 4 === 0 ? 'AAPL' : 'MSFT', action: 'buy' },
        response: failed ? { status: 'rejected' } : { status: 'filled' },
        elapsed: 12,
      },
    });
  }
  await insertAction(t, {
    userId: a.id,
    code: 'ConnectorActivate',
    createdAt: '2025-02-01T00:00:00Z',
    metadata: { providerName: 'paper', accounts: [{ id: 'P1' }] },
  });
  await insertAction(t, {
    userId: a.id,
    code: 'Signin',
    createdAt: '2025-01-01T00:00:00Z',
    metadata: { method: 'password' },
  });
  otherId = await insertAction(t, {
    userId: b.id,
    code: 'Order',
    createdAt: '2025-03-01T12:00:00.001Z',
    metadata: {
      shortKey: 'other',
      providerName: 'paper',
      request: { symbol: 'AAPL' },
      response: { status: 'rejected' },
    },
  });
  const { rows } = await t.services.db.$client.query<{ id: string }>(
    'select id from actions where user_id = $1 order by created_at desc, id desc',
    [a.id],
  );
  expected = rows.map((row) => Number(row.id));
});
afterAll(async () => {
  await t.close();
});

async function actions(variables: Record<string, unknown>, headers = a.headers) {
  return gqlAs<{ actions: Action[] }>(t, headers, ACTIONS, variables);
}

describe('actions', () => {
  it("lists the caller's actions newest first, 20 by default, worded and labelled", async () => {
    const { data } = await actions({});
    const page = data?.actions ?? [];
    // Rows 19, 20 and 21 share a millisecond: the page ends after the whole millisecond.
    expect(page.map((x) => x.id)).toEqual(expected.slice(0, 21));
    const byKey = (key: string) => page.find((x) => JSON.parse(x.metadata).shortKey === key);
    // hook1 and hook2 share a microsecond: the later id comes first.
    expect(page.slice(0, 3).map((x) => JSON.parse(x.metadata).shortKey)).toEqual(['hook2', 'hook1', 'hook0']);
    const first = byKey('hook0');
    expect(first?.description).toBe('Webhook hook0 (Paper Trading#P1) call failed');
    expect(first?.addressLabel).toBe('TradingView');
    expect(byKey('hook1')?.addressLabel).toBeNull();
    expect(byKey('hook1')?.description).toBe('Webhook hook1 (Paper Trading#P1) called');
    expect(JSON.parse(first?.metadata ?? '{}')).toMatchObject({ request: { symbol: 'AAPL' }, elapsed: 12 });
    expect(first?.createdAt).toBe(Date.parse('2025-03-01T12:00:00.000Z'));
  });

  it('pages with createdAtFrom through every action once', async () => {
    const seen: number[] = [];
    let from: number | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const { data, errors } = await actions(from === undefined ? {} : { createdAtFrom: from });
      expect(errors).toBeUndefined();
      const page = data?.actions ?? [];
      seen.push(...page.map((x) => x.id));
      if (page.length < 20) break;
      from = page.at(-1)?.createdAt;
    }
    expect(seen).toEqual(expected);
  });

  it('filters by code and honours limit', async () => {
    const { data } = await actions({ code: 'ConnectorActivate', limit: 5 });
    // The provider by its title, as the connector list and the docs name it.
    expect(data?.actions.map((x) => x.description)).toEqual(['Paper Trading account(s) #P1 connected']);
    const limited = await actions({ limit: 3 });
    expect(limited.data?.actions.map((x) => x.id)).toEqual(expected.slice(0, 3));
  });

  it('searches the request text and the description, case-insensitively, from 3 characters', async () => {
    const aapl = await actions({ search: 'aapl', limit: 100 });
    const ids = aapl.data?.actions.map((x) => x.id) ?? [];
    expect(ids).toHaveLength(12);
    expect(ids).not.toContain(otherId);
    const failed = await actions({ search: 'CALL FAILED', limit: 100 });
    expect(failed.data?.actions.every((x) => x.description.endsWith('call failed'))).toBe(true);
    expect(failed.data?.actions).toHaveLength(10);
    const signin = await actions({ search: 'signed in' });
    expect(signin.data?.actions.map((x) => x.code)).toEqual(['Signin']);
    // The title shown is what a search finds.
    const connected = await actions({ search: 'trading account', limit: 100 });
    expect(connected.data?.actions.map((x) => x.code)).toEqual(['ConnectorActivate']);
    const none = await actions({ search: '50%_' });
    expect(none.data?.actions).toEqual([]);
  });

  it('refuses a search under 3 characters and a bad limit', async () => {
    const short = await actions({ search: 'ab' });
    expect(short.errors?.[0]?.message).toBe('Search needs at least 3 characters');
    expect(short.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await actions({ limit: 0 })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await actions({ limit: 101 })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await actions({ search: '' })).data?.actions).toHaveLength(21);
  });

  it('refuses a since no date can hold as invalid input, naming the field, not as an internal error', async () => {
    const query = 'query($since: Float) { actions(since: $since) { id } }';
    for (const since of [1e300, -1e300, 8.64e15 + 1, -1]) {
      const { errors } = await gqlAs(t, a.headers, query, { since });
      expect(errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(errors?.[0]?.message).toBe('Invalid since');
    }
    const day = await gqlAs<{ actions: Action[] }>(t, a.headers, query, { since: Date.parse('2025-02-01T00:00:00Z') });
    expect(day.data?.actions).toHaveLength(21);
  });

  it("never shows another user's actions", async () => {
    const { data } = await actions({ limit: 100 }, b.headers);
    expect(data?.actions.map((x) => x.id)).toEqual([otherId]);
  });
});

describe('action', () => {
  it('returns one action of the caller, NOT_FOUND for others', async () => {
    const own = await gqlAs<{ action: Action }>(t, a.headers, ACTION, { id: expected[0] });
    expect(own.data?.action.id).toBe(expected[0]);
    const other = await gqlAs<{ action: Action }>(t, a.headers, ACTION, { id: otherId });
    expect(other.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const anonymous = await gqlAs<{ action: Action }>(t, {}, ACTION, { id: otherId });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});
