// Bad input at volume: at least 10,000 generated and mutated requests (bodies.ts) at the real
// server's hook, 32 at a time over keep-alive. Never a 5xx, never an order from a body that is
// not an order, valid orders always placed, and the server stays up; then the books.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT, type Case, hookCase, paddedOrder } from './bodies.ts';
import type { Reply } from './books.ts';
import { type Drill, paperBooks, startDrill } from './drill.ts';

const BATCH = 32;
const RUNS = 320; // × 32 = 10,240 requests
let drill: Drill;
const replies: Reply[] = [];
const kinds: Record<string, Record<number, number>> = {};

beforeAll(async () => {
  // The hook must not deactivate itself on the flood of invalid requests (hygiene is tested elsewhere).
  drill = await startDrill({ HOOK_INVALID_THRESHOLD: '1000000000' });
});
afterAll(() => drill?.close());

async function send(c: Case): Promise<Reply & { ok: boolean; why: string }> {
  const [live, test] = drill.trader.hooks as [string, string];
  const res = await fetch(`${drill.server.url}/hook/${c.live ? live : test}`, {
    method: 'POST',
    headers: c.contentType === undefined ? {} : { 'content-type': c.contentType },
    body: new Uint8Array(c.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text; checked below
  }
  const byKind = kinds[c.kind] ?? {};
  kinds[c.kind] = byKind;
  byKind[res.status] = (byKind[res.status] ?? 0) + 1;
  const shaped =
    typeof body === 'object' &&
    body !== null &&
    (res.status === 201 ? 'id' in body : 'status' in body && 'message' in body);
  const why = `${c.kind} ${c.contentType} ${JSON.stringify(c.body.toString('utf8').slice(0, 120))} → ${res.status} ${text.slice(0, 200)}`;
  const allowed = c.expect === 'valid' ? res.status === 201 : c.expect === 'invalid' ? res.status !== 201 : true;
  return { status: res.status, body, ok: res.status < 500 && shaped && allowed, why };
}

describe('bad input at volume', () => {
  it('exactly the size limit is read; one byte over is 413', async () => {
    const at = await send({
      kind: 'limit',
      body: paddedOrder(BODY_LIMIT),
      contentType: 'application/json',
      expect: 'valid',
      live: true,
    });
    const over = await send({
      kind: 'limit+1',
      body: paddedOrder(BODY_LIMIT + 1),
      contentType: 'application/json',
      expect: 'invalid',
      live: true,
    });
    replies.push(at, over);
    expect(at.status, at.why).toBe(201);
    expect(over.status, over.why).toBe(413);
  });

  it('survives 10,240 generated requests without a 5xx or an order from an invalid body', async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(hookCase, { minLength: BATCH, maxLength: BATCH }), async (cases) => {
        const answers = await Promise.all(cases.map(send));
        replies.push(...answers);
        const bad = answers.find((a) => !a.ok);
        if (bad) throw new Error(bad.why);
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
    const health = await fetch(`${drill.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(drill.server.process.child.exitCode).toBeNull();
    console.info(`bad input: ${replies.length} requests in ${Date.now() - started} ms`, JSON.stringify(kinds));
  });

  it('the books hold: orders equal the distinct valid signals placed', async () => {
    const books = await paperBooks(drill, replies);
    console.info('bad input books:', JSON.stringify({ ...books, problems: books.problems.slice(0, 5) }));
    expect(books.problems).toEqual([]);
    // Nothing is stored from a refused body: a signal row was answered 201, or is the broker's
    // own refusal of a valid order (status rejected, credit returned, no order).
    const sql = drill.server.sql();
    const answeredIds = new Set(replies.filter((r) => r.status === 201).map((r) => (r.body as { id: string }).id));
    const { rows } = await sql.query<{
      id: string;
      broker_order_id: string | null;
      status: string;
      credit_held: boolean;
    }>('select id, broker_order_id, status, credit_held from signals where user_id = $1', [drill.trader.userId]);
    for (const row of rows) {
      if (answeredIds.has(row.id) || answeredIds.has(row.broker_order_id ?? '')) continue;
      expect(row).toMatchObject({ status: 'rejected', credit_held: false });
    }
  });
});
