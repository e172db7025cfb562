import { useLive } from './live-provider.tsx';

/** 'Live' while updates stream in; 'Reconnecting…' while the stream is lost (issue #21). */
export function LiveIndicator({ className = '' }: { className?: string }) {
  const { status } = useLive();
  if (status === 'connecting') return null;
  const live = status === 'live';
  return (
    <span
      role="status"
      className={`badge rounded-pill ${live ? 'text-bg-success' : 'text-bg-warning'} ${className}`}
      data-testid="live-status"
      title={live ? 'New activity appears without reloading' : 'Updates paused: connecting again'}
    >
      <span aria-hidden="true">● </span>
      {live ? 'Live' : 'Reconnecting…'}
    </span>
  );
}
