// Resting orders for the paper broker (BENCH_RESTING): buy limits far below the market on the
// symbol the load phases trade, placed through the live hook like any signal. They never fill,
// so every later placement on the symbol has them all resting beside it.
import type pg from 'pg';
import { runBurst } from './load.ts';

let placed = 0;
const runId = Date.now().toString(36);

/** A limit buy of AAPL between $1 and $6, never reached by its simulated price (~$190). */
export const restingBody = () =>
  JSON.stringify({
    symbol: 'AAPL',
    action: 'buy',
    quantity: 1,
    type: 'limit',
    limit_price: 1 + (placed % 50) / 10,
    client_id: `resting-${runId}-${++placed}`,
  });

/** The paper broker's open orders now. */
export async function openPaperOrders(sql: pg.Pool): Promise<number> {
  const { rows } = await sql.query<{ n: string }>(`select count(*) as n from paper_orders where status = 'open'`);
  return Number(rows[0]?.n ?? 0);
}

/** Places resting orders until `target` are open; returns how many are. */
export async function restUpTo(url: string, path: string, sql: pg.Pool, target: number): Promise<number> {
  const missing = target - (await openPaperOrders(sql));
  if (missing > 0) {
    const burst = await runBurst(url, path, missing, 100, restingBody);
    const refused = Object.entries(burst.statusCounts).filter(([code]) => code !== '201');
    if (refused.length > 0 || burst.errors > 0) {
      throw new Error(`resting orders refused: ${JSON.stringify(burst.statusCounts)}, ${burst.errors} errors`);
    }
    // Answers after the hook's deadline are confirmed in the background: let them land.
    for (let wait = 0; wait < 600 && (await openPaperOrders(sql)) < target; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return openPaperOrders(sql);
}
