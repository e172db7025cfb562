import { createContext, type ReactNode, use, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import { LiveDocument } from './documents.ts';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

interface LiveValue {
  status: LiveStatus;
  /** Grows with every change the server tells of (and after a reconnection): screens reload. */
  version: number;
}

const LiveContext = createContext<LiveValue>({ status: 'connecting', version: 0 });

/** Waits between attempts after a lost stream: 1 s, doubling, at most 15 s. */
const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 15_000);

/**
 * Live updates (issue #21): one `live` subscription for the signed-in screens. Each event but the
 * first 'ready' bumps `version`; a lost stream shows 'reconnecting' and subscribes again, and the
 * 'ready' of a reconnection bumps `version` too (changes may have been missed meanwhile).
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const [value, setValue] = useState<LiveValue>({ status: 'connecting', version: 0 });
  const everConnected = useRef(false);

  useEffect(() => {
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let subscription: { unsubscribe: () => void } | undefined;
    let stopped = false;

    const lost = () => {
      subscription?.unsubscribe();
      subscription = undefined;
      if (stopped) return;
      setValue((v) => ({ ...v, status: 'reconnecting' }));
      timer = setTimeout(connect, retryDelay(attempt));
      attempt += 1;
    };

    function connect() {
      if (stopped) return;
      subscription = client.subscription(LiveDocument, {}).subscribe((result) => {
        const kind = result.data?.live.kind;
        if (kind) {
          attempt = 0;
          const bump = kind !== 'ready' || everConnected.current;
          everConnected.current = true;
          setValue((v) => ({ status: 'live', version: bump ? v.version + 1 : v.version }));
        }
        if (result.error || result.hasNext === false) lost();
      });
    }

    connect();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      subscription?.unsubscribe();
    };
  }, [client]);

  return <LiveContext value={value}>{children}</LiveContext>;
}

export const useLive = (): LiveValue => use(LiveContext);

/** Calls `reload` whenever the server tells of a change (not on mount). */
export function useLiveReload(reload: () => void): void {
  const { version } = useLive();
  const seen = useRef(version);
  const latest = useRef(reload);
  latest.current = reload;
  useEffect(() => {
    if (version === seen.current) return;
    seen.current = version;
    latest.current();
  }, [version]);
}
