// Where new signals are stored: by group commit (db/group-commit.ts), so a burst costs one
// statement and one commit per batch instead of one per signal. Every caller is answered only
// after its batch committed, with what storing it alone would have given:
// - two signals with one key never share a batch: the second waits for the first and then
//   finds it (a repeat), exactly as if they had come one after the other;
// - when a user's credits do not cover a batch, the batch is rationed: balances locked, the
//   signals taken in arrival order while credits last, the rest answered "no credit";
// - any other failure of a batch (a body PostgreSQL cannot store, a deadlock between
//   instances) stores its signals one by one (GroupCommit), so one bad signal costs only itself.
import type pg from 'pg';
import { GroupCommit } from '../../db/group-commit.ts';
import {
  claimedKeys,
  isNoCreditError,
  lockBalances,
  type NewSignal,
  storeSignals,
} from '../../db/repositories/signals.repository.ts';

/** The id owning the signal's key (its own when stored), or no credit left to store it. */
export type StoreResult = { owner: string } | { noCredit: true };

const NO_CREDIT: StoreResult = { noCredit: true };
const MAX_BATCH = 500;

const keyOf = (s: NewSignal) => `${s.hookId}:${s.key}`;

export class SignalStore {
  readonly #pool: pg.Pool;
  readonly #windowSeconds: number;
  readonly #batches: GroupCommit<NewSignal, StoreResult>;
  /** The last store of each key not yet settled. */
  readonly #byKey = new Map<string, Promise<unknown>>();

  constructor(pool: pg.Pool, windowSeconds: number) {
    this.#pool = pool;
    this.#windowSeconds = windowSeconds;
    this.#batches = new GroupCommit((signals) => this.#write(signals), MAX_BATCH);
  }

  /** Throws what storing failed with (database unavailable, unstorable input). */
  store(signal: NewSignal): Promise<StoreResult> {
    const key = keyOf(signal);
    const before = this.#byKey.get(key);
    const submit = () => this.#batches.submit(signal);
    const result = before ? before.then(submit, submit) : submit();
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    this.#byKey.set(key, settled);
    void settled.then(() => {
      if (this.#byKey.get(key) === settled) this.#byKey.delete(key);
    });
    return result;
  }

  /** Throws on any failure but missing credits (GroupCommit then stores the signals one by one). */
  async #write(signals: NewSignal[]): Promise<StoreResult[]> {
    try {
      const owners = await storeSignals(this.#pool, signals, this.#windowSeconds);
      return owners.map((owner) => ({ owner }));
    } catch (error) {
      if (!isNoCreditError(error)) throw error;
      return signals.length === 1 ? [NO_CREDIT] : this.#rationed(signals);
    }
  }

  /** In one transaction: lock the balances, give credits in arrival order, store what has one. */
  async #rationed(signals: NewSignal[]): Promise<StoreResult[]> {
    let client: pg.PoolClient | undefined;
    let broken = false;
    try {
      client = await this.#pool.connect();
      await client.query('begin');
      const live = signals.filter((s) => !s.isTest);
      const left = await lockBalances(client, [...new Set(live.map((s) => s.userId))]);
      const repeats = await claimedKeys(client, live);
      const kept: NewSignal[] = [];
      const results: Array<StoreResult | undefined> = signals.map((s) => {
        if (!s.isTest && !repeats.has(keyOf(s))) {
          const credits = left.get(s.userId) ?? 0;
          if (credits <= 0) return NO_CREDIT;
          left.set(s.userId, credits - 1);
        }
        kept.push(s);
        return undefined;
      });
      const owners = kept.length > 0 ? await storeSignals(client, kept, this.#windowSeconds) : [];
      await client.query('commit');
      const owned = owners.values();
      return results.map((r) => r ?? { owner: String(owned.next().value) });
    } catch (error) {
      await client?.query('rollback').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // A connection that cannot even roll back is discarded, not returned to the pool.
      client?.release(broken);
    }
  }
}
