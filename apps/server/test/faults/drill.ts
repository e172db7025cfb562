// What every drill starts with: an SMTP sink, the real server on a copy of the template DATA_DIR,
// and a trader with a live and a test hook on the paper broker (or the fault broker).
import { inject } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../smtp-sink.ts';
import { type Books, checkBooks, paperOrderIds, type Reply, waitSettled } from './books.ts';
import { copyTemplate } from './global-setup.ts';
import { type LiveServer, removeDataDir, startLiveServer } from './live-server.ts';
import { balanceOf, createTrader, type Trader, type TraderOptions } from './trader.ts';

export interface Drill {
  smtp: SmtpSink;
  server: LiveServer;
  trader: Trader;
  balanceBefore: number;
  /** Stops the server (if running), the sink, and removes the DATA_DIR. */
  close(): Promise<void>;
}

export const CREDITS = 1_000_000;

export async function startDrill(
  env: Record<string, string> = {},
  trader: TraderOptions = {},
  dataDir = copyTemplate(inject('faultsTemplateDir')),
): Promise<Drill> {
  const smtp = await startSmtpSink();
  const server = await startLiveServer({ SMTP_URL: smtp.url, ...env }, dataDir);
  const made = await createTrader(server.url, smtp, server.sql(), { balance: CREDITS, ...trader });
  const drill: Drill = {
    smtp,
    server,
    trader: made,
    balanceBefore: await balanceOf(server.sql(), made.userId),
    async close() {
      await drill.server.stop().catch(() => {});
      await smtp.close();
      await removeDataDir(dataDir);
    },
  };
  return drill;
}

/**
 * The books of a drill once its signals settled: the replies against its signal rows, credits
 * and the broker's orders (client order ids). `allow5xx`: statuses ≥ 500 the drill expects.
 */
export async function drillBooks(
  drill: Drill,
  brokerOrderIds: () => string[] | Promise<string[]>,
  replies: Reply[],
  allow5xx?: number[],
): Promise<Books> {
  const sql = drill.server.sql();
  await waitSettled(sql, drill.trader.userId);
  return checkBooks({
    sql,
    userId: drill.trader.userId,
    brokerOrderIds: await brokerOrderIds(),
    balanceBefore: drill.balanceBefore,
    replies,
    ...(allow5xx ? { allow5xx } : {}),
  });
}

/** drillBooks against the paper account. */
export function paperBooks(drill: Drill, replies: Reply[], allow5xx?: number[]): Promise<Books> {
  return drillBooks(drill, () => paperOrderIds(drill.server.sql(), drill.trader.accountId), replies, allow5xx);
}
