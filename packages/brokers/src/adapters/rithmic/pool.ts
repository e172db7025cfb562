// The order-plant sessions this server keeps at Rithmic: one per gateway and user (the password's
// hash is part of the key, so a changed password logs in anew), logged in on a call's first need
// and shared by that user's later and concurrent calls. Rithmic's conformance asks applications
// not to hammer login, and a user has few sessions: a signal is one order request, not a login.
// A session unused for IDLE_MS logs out; one Rithmic dropped, logged out or that stopped
// answering is replaced on the next call; a login that failed is not kept.
import { createHash } from 'node:crypto';
import type { BrokerContext } from '../../core/broker.ts';
import { type Credentials, openPlant, type Plant, plantFor } from './plant.ts';

export const IDLE_MS = 5 * 60_000;

export interface PlantPool {
  /** Runs `work` on the user's order-plant session, logging in when there is none. */
  use<T>(ctx: BrokerContext, credentials: Credentials, work: (plant: Plant) => Promise<T>): Promise<T>;
  /** Logs every session out (shutdown, tests). */
  close(): Promise<void>;
}

interface Session {
  plant: Promise<Plant>;
  /** The plant once logged in. */
  ready?: Plant;
  /** Calls running on it: it is not idle while any is. */
  calls: number;
  idle?: NodeJS.Timeout;
}

const keyOf = (ctx: BrokerContext, credentials: Credentials) =>
  createHash('sha256')
    .update(JSON.stringify([ctx.baseUrl, credentials.user, credentials.systemName, credentials.password]))
    .digest('base64url');

export function createPlantPool(idleMs = IDLE_MS): PlantPool {
  const sessions = new Map<string, Session>();

  const end = (key: string, session: Session) => {
    clearTimeout(session.idle);
    if (sessions.get(key) === session) sessions.delete(key);
    return session.plant.then(
      (plant) => plant.connection.close(),
      () => undefined,
    );
  };

  function sessionFor(ctx: BrokerContext, credentials: Credentials): Session {
    const key = keyOf(ctx, credentials);
    const known = sessions.get(key);
    if (known && (!known.ready || known.ready.connection.usable)) return known;
    if (known) void end(key, known);
    const session: Session = { plant: openPlant(ctx, credentials), calls: 0 };
    sessions.set(key, session);
    session.plant.then(
      (plant) => {
        session.ready = plant;
      },
      () => {
        if (sessions.get(key) === session) sessions.delete(key);
      },
    );
    return session;
  }

  return {
    async use(ctx, credentials, work) {
      const key = keyOf(ctx, credentials);
      const session = sessionFor(ctx, credentials);
      clearTimeout(session.idle);
      session.calls++;
      try {
        return await work(plantFor(await session.plant, ctx.signal));
      } finally {
        if (--session.calls === 0) {
          session.idle = setTimeout(() => void end(key, session), idleMs);
          session.idle.unref();
        }
      }
    },
    async close() {
      await Promise.all([...sessions].map(([key, session]) => end(key, session)));
    },
  };
}
