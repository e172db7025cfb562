import { PASSWORD_MIN_SCORE } from '@router/shared';

/** SPEC §9: the bar is score × 10 % wide (a score above 10 fills it). */
export const strengthWidth = (score: number | null): number => Math.max(0, Math.min(100, (score ?? 0) * 10));

const variant = (score: number): string =>
  score > PASSWORD_MIN_SCORE ? 'bg-success' : score > PASSWORD_MIN_SCORE / 2 ? 'bg-warning' : 'bg-danger';

export function PasswordStrength({ score }: { score: number | null }) {
  const width = strengthWidth(score);
  const label = score === null ? 'not rated yet' : score > PASSWORD_MIN_SCORE ? 'strong enough' : 'too weak';
  return (
    <div
      className="progress mt-2"
      style={{ height: 6 }}
      role="progressbar"
      aria-label={`Password strength: ${label}`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={width}
    >
      <div
        className={`progress-bar ${variant(score ?? 0)}`}
        style={{ width: `${width}%` }}
        data-testid="password-strength"
      />
    </div>
  );
}
