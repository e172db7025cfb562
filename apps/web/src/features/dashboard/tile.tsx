import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Placeholder from 'react-bootstrap/Placeholder';
import { Link } from 'react-router';
import type { AnyVariables, UseQueryState } from 'urql';

export type TileState = { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; value: ReactNode };

/** A tile's state from a query's result: its value once loaded. */
export function tileState<T>(result: UseQueryState<T, AnyVariables>, value: (data: T) => ReactNode): TileState {
  if (result.data) return { kind: 'ready', value: value(result.data) };
  if (result.error && !result.fetching) return { kind: 'error' };
  return { kind: 'loading' };
}

interface TileProps {
  title: string;
  state: TileState;
  /** A short line under the value, e.g. 'live / test'. */
  hint?: string;
  /** Where the tile leads (the whole card is one link). */
  to?: string;
  testId: string;
}

/** One dashboard figure: a title, a big value and a hint; a placeholder while loading. */
export function Tile({ title, state, hint, to, testId }: TileProps) {
  const value =
    state.kind === 'loading' ? (
      <Placeholder as="span" animation="glow" aria-hidden="true">
        <Placeholder xs={4} />
      </Placeholder>
    ) : state.kind === 'error' ? (
      <span className="text-secondary" title="Could not load">
        –
      </span>
    ) : (
      state.value
    );
  return (
    <Card className="h-100 shadow-sm" data-testid={testId} aria-busy={state.kind === 'loading'}>
      <Card.Body>
        <Card.Title as="h2" className="h6 text-secondary mb-2">
          {to ? (
            <Link to={to} className="stretched-link link-secondary text-decoration-none">
              {title}
            </Link>
          ) : (
            title
          )}
        </Card.Title>
        <div className="display-6 fw-semibold" data-testid={`${testId}-value`}>
          {value}
        </div>
        {state.kind === 'error' ? (
          <div className="small text-danger">Could not load</div>
        ) : (
          hint && <div className="small text-secondary">{hint}</div>
        )}
      </Card.Body>
    </Card>
  );
}
