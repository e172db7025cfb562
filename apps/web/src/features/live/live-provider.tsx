import { createContext, type ReactNode, use, useEffect, useRef, useState } from 'react';
import { useClient } from 'urql';
import { type LiveMessage, openLiveStream, shareLiveStream } from './live-stream.ts';

export type LiveStatus = 'connecting' | 'live' | 'reconnecting';

interface LiveValue {
  status: LiveStatus;
  /** Grows with every change the server tells of (and after a reconnection): screens reload. */
  version: number;
}

const LiveContext = createContext<LiveValue>({ status: 'connecting', version: 0 });

/**
 * Live updates (issue #21): one `live` subscription for the signed-in screens, shared by the
 * browser's tabs (live-stream.ts). Each event but the first 'ready' bumps `version`; a lost stream
 * shows 'reconnecting' and subscribes again, and the 'ready' of a reconnection (or of another tab
 * taking the stream over) bumps `version` too (changes may have been missed meanwhile).
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const [value, setValue] = useState<LiveValue>({ status: 'connecting', version: 0 });
  const everConnected = useRef(false);

  useEffect(() => {
    const tell = (message: LiveMessage) => {
      if (message.status === 'reconnecting' || !message.kind) {
        setValue((v) => ({ ...v, status: message.status }));
      } else {
        const bump = message.kind !== 'ready' || everConnected.current;
        setValue((v) => ({ status: 'live', version: bump ? v.version + 1 : v.version }));
      }
      if (message.status === 'live') everConnected.current = true;
    };
    return shareLiveStream((told) => openLiveStream(client, told), tell);
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
