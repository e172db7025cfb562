import { useLive } from './live-provider.tsx';

/** 'Live' while updates stream in; 'Reconnecting…' while the stream is lost (issue #21). */
export function LiveIndicator({ className = '' }: { className?: string }) {
  const { status } = useLive();
  if (status === 'connecting') return null;
  const live = status === 'live';
  return (
    <>
      <span
        role="status"
        className={`badge rounded-pill ${live ? 'text-bg-success' : 'text-bg-warning'} ${className}`}
        data-testid="live-status"
        title={live ? 'New activity appears without reloading' : 'Updates paused: connecting again'}
      >
        <span aria-hidden="true">● </span>
        {live ? 'Live' : 'Reconnecting…'}
      </span>
      {!live && (
        // On a phone the heading is soon scrolled away: the lost stream is told at the bottom too.
        <span
          aria-hidden="true"
          className="badge rounded-pill text-bg-warning shadow position-fixed bottom-0 start-50 translate-middle-x mb-3 z-3 d-md-none"
          data-testid="live-status-floating"
        >
          ● Reconnecting…
        </span>
      )}
    </>
  );
}
