import type { Client } from 'urql';
import { readProxiedUser, readToken } from '../../lib/storage.ts';
import { LiveDocument } from './documents.ts';

/** What the stream tells: an event's kind (the stream is live), or that it was lost. */
export type LiveMessage = { status: 'live'; kind?: string } | { status: 'reconnecting' };

/**
 * Waits between attempts after a lost stream: 1 s, doubling, at most 15 s, each drawn between
 * half and all of that. A restart drops every browser's stream at once; without the draw they
 * all came back in the same millisecond, and again at each doubling.
 */
export const retryDelay = (attempt: number, random: () => number = Math.random) => {
  const ceiling = Math.min(1000 * 2 ** attempt, 15_000);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
};

/** One `live` subscription, subscribed again after a loss. Returns what stops it. */
export function openLiveStream(client: Client, tell: (message: LiveMessage) => void): () => void {
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let subscription: { unsubscribe: () => void } | undefined;
  let stopped = false;

  const lost = () => {
    subscription?.unsubscribe();
    subscription = undefined;
    if (stopped) return;
    tell({ status: 'reconnecting' });
    timer = setTimeout(connect, retryDelay(attempt));
    attempt += 1;
  };

  function connect() {
    if (stopped) return;
    subscription = client.subscription(LiveDocument, {}).subscribe((result) => {
      const kind = result.data?.live.kind;
      if (kind) {
        attempt = 0;
        tell({ status: 'live', kind });
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
}

/** A short fingerprint of the identity (token and proxied user), never the token itself. */
function identity(): string {
  const text = `${readToken() ?? ''}\n${readProxiedUser() ?? ''}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * The browser's tabs of one identity share one stream: over HTTP/1.1 a browser opens at most six
 * connections to a host, and a stream per tab held them all (a seventh tab could not even load).
 * The tab holding a Web Lock streams and tells the others over a BroadcastChannel; when it closes
 * another takes the lock and streams. Without these APIs each tab streams on its own.
 */
export function shareLiveStream(
  open: (tell: (message: LiveMessage) => void) => () => void,
  tell: (message: LiveMessage) => void,
): () => void {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof BroadcastChannel === 'undefined') return open(tell);
  const name = `router-live-${identity()}`;
  const channel = new BroadcastChannel(name);
  let leading = false;
  let last: LiveMessage | undefined;
  channel.onmessage = ({ data }: MessageEvent<LiveMessage | 'hello'>) => {
    // A new tab asks the streaming one where the stream stands.
    if (data === 'hello') {
      if (leading && last) channel.postMessage({ status: last.status });
    } else tell(data);
  };
  const abort = new AbortController();
  let stop = () => {};
  locks
    .request(name, { signal: abort.signal }, () => {
      leading = true;
      const close = open((message) => {
        last = message;
        channel.postMessage(message);
        tell(message);
      });
      return new Promise<void>((resolve) => {
        stop = () => {
          close();
          resolve();
        };
      });
    })
    .catch(() => {}); // aborted: the tab closed the stream before it was its turn
  channel.postMessage('hello');
  return () => {
    abort.abort();
    stop();
    channel.close();
  };
}
