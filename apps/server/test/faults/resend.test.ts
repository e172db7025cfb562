// TradingView re-sends an alert it got no timely answer for: the same signal 4 times in a row,
// and a burst of 50 identical ones at once, are one order each; another order under a used
// client_id is refused, not answered as the first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Drill, paperBooks, startDrill } from './drill.ts';
import { order, post, type Sent } from './load.ts';

let drill: Drill;
const replies: Sent[] = [];

beforeAll(async () => {
  drill = await startDrill();
});
afterAll(() => drill?.close());

describe('resends', () => {
  it('the same body 4 times in a row is one order with one answer', async () => {
    const [live] = drill.trader.hooks as [string];
    const body = { symbol: 'AAPL', action: 'buy', quantity: 2 };
    const answers: Sent[] = [];
    for (let i = 0; i < 4; i++) answers.push(await post(drill.server.url, live, body));
    replies.push(...answers);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    // The same answer each time (key order aside: a repeat's comes from a jsonb column).
    const canonical = (body: unknown) => JSON.stringify(Object.entries(body as object).sort());
    expect(new Set(answers.map((a) => canonical(a.body))).size).toBe(1);
  });

  it('the same client_id 4 times (the same order, bodies differing) is one order; another order under it is refused', async () => {
    const [live] = drill.trader.hooks as [string];
    const answers: Sent[] = [];
    for (let i = 0; i < 4; i++)
      answers.push(await post(drill.server.url, live, order('resend', 1, { time: `2026-01-0${i + 1}T00:00:00Z` })));
    replies.push(...answers);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => (a.body as { id: string }).id)).size).toBe(1);
    const other = await post(drill.server.url, live, order('resend', 1, { quantity: 2 }));
    replies.push(other);
    expect(other.status).toBe(400);
    expect((other.body as { status: string }).status).toBe('ValidationError');
  });

  it('50 identical signals at once are one order; every sender gets its answer', async () => {
    const [live, test] = drill.trader.hooks as [string, string];
    for (const key of [live, test]) {
      const body = order(`burst-${key}`, 1);
      const answers = await Promise.all(Array.from({ length: 50 }, () => post(drill.server.url, key, body)));
      replies.push(...answers);
      expect(answers.every((a) => a.status === 201)).toBe(true);
      expect(new Set(answers.map((a) => (a.body as { id: string }).id)).size).toBe(1);
    }
  });

  it('the books hold', async () => {
    const books = await paperBooks(drill, replies);
    console.info('resends:', JSON.stringify({ ...books, problems: books.problems.length }));
    expect(books.problems).toEqual([]);
    expect(books.liveKept).toBe(3);
    expect(books.brokerOrders).toBe(3);
  });
});
