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
 * browser's tabs (live-stream.ts). Every event bumps `version`, 'ready' too: the screens loaded
 * before a stream began (the page's first, a reconnection's, another tab's taking it over) may
 * have missed a change meanwhile, a signal placed between their load and the subscription. A lost
 * stream shows 'reconnecting' and subscribes again.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const client = useClient();
  const [value, setValue] = useState<LiveValue>({ status: 'connecting', version: 0 });

  useEffect(() => {
    const tell = (message: LiveMessage) => {
      if (message.status === 'reconnecting' || !message.kind) setValue((v) => ({ ...v, status: message.status }));
      else setValue((v) => ({ status: 'live', version: v.version + 1 }));
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
