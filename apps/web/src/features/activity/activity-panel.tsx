import { useEffect, useMemo, useRef } from 'react';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { Link, useSearchParams } from 'react-router';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { MoreFooter } from '../../components/more-footer.tsx';
import { useLiveReload } from '../live/live-provider.tsx';
import { ActivityFiltersBar, type FilterOptions } from './activity-filters.tsx';
import { ActivityRow } from './activity-row.tsx';
import { ActivitySearch } from './activity-search.tsx';
import { type ActivityFilters, isFiltered } from './filters.ts';
import { type ActionRow, useActivity } from './use-activity.ts';
import { useActivityQuery } from './use-activity-query.ts';

const INLINE = 'd-inline-flex align-items-center';

/** Webhooks and brokers seen so far: the filters keep offering them once a filter narrows the list. */
function useFilterOptions(actions: readonly ActionRow[]): FilterOptions {
  const seen = useRef<{ hooks: Map<string, string>; providers: Set<string> }>({
    hooks: new Map(),
    providers: new Set(),
  });
  return useMemo(() => {
    for (const { trade } of actions) {
      if (trade?.hookKey) seen.current.hooks.set(trade.hookKey, trade.hookName ?? trade.hookKey);
      if (trade?.providerName) seen.current.providers.add(trade.providerName);
    }
    return { hooks: new Map(seen.current.hooks), providers: new Set(seen.current.providers) };
  }, [actions]);
}

/**
 * SPEC §2 'Last actions': search, the log table and 'More' paging; Order rows as trade lines with
 * their filters (issue #21). `/me?signal=<id>` (the link of a notification) shows that signal's
 * entries opened, scrolled into view, with a way back to all.
 */
export function ActivityPanel() {
  const [params] = useSearchParams();
  // In the address (`/me?hook=<key>`: a deactivated webhook's "See its last calls"): a reload, Back
  // and Forward keep them.
  const [{ text, filters }, change] = useActivityQuery();
  const setText = (next: string) => change({ text: next });
  const setFilters = (next: ActivityFilters) => change({ filters: next });
  const signalId = params.get('signal') || undefined;
  // 'Show all activity' leaves the signal and keeps the rest of the address (the chart's interval).
  const rest = new URLSearchParams(params);
  rest.delete('signal');
  const allActivity = { pathname: '/me', search: rest.size > 0 ? `?${rest}` : '' };
  const activity = useActivity(text, filters, signalId);
  const section = useRef<HTMLElement>(null);
  const shown = activity.loaded && !activity.loading;
  useEffect(() => {
    if (signalId && shown) section.current?.scrollIntoView?.({ block: 'start' });
  }, [signalId, shown]);
  // 'Show all activity' goes away with the signal's view: the focus it held moves on to the search
  // box replacing it rather than being lost to the page (a keyboard user would start over).
  const previousSignal = useRef(signalId);
  useEffect(() => {
    const left = previousSignal.current !== undefined && signalId === undefined;
    previousSignal.current = signalId;
    if (left && (document.activeElement === null || document.activeElement === document.body)) {
      document.getElementById('activity-search')?.focus();
    }
  }, [signalId]);
  const options = useFilterOptions(activity.actions);
  useLiveReload(activity.refresh);

  if (!activity.loaded) return <DelayedSpinner className="d-flex justify-content-center py-4" />;
  if (activity.hidden) return null;

  return (
    <Card
      as="section"
      ref={section}
      className="shadow-sm mb-4"
      aria-labelledby="last-actions-title"
      aria-busy={activity.loading}
    >
      <Card.Header className="d-flex flex-wrap gap-2 justify-content-between align-items-center bg-body">
        <h2 id="last-actions-title" className="h6 m-0 d-flex align-items-center gap-2">
          {signalId ? `Activity of signal ${signalId}` : 'Activity'}
          {activity.loading && <DelayedSpinner className={INLINE} />}
        </h2>
        {signalId ? (
          <Link to={allActivity}>Show all activity</Link>
        ) : (
          <ActivitySearch value={text} onChange={setText} />
        )}
      </Card.Header>
      {/* Trade filters once there is a trade to filter (a new trader has only sign-ins). */}
      {!signalId && (options.hooks.size > 0 || isFiltered(filters)) && (
        <ActivityFiltersBar value={filters} options={options} onChange={setFilters} />
      )}
      <Table responsive hover className="mb-0 align-middle card-table" size="sm">
        <thead>
          <tr>
            <th scope="col">Last actions</th>
            <th scope="col" className="d-none d-md-table-cell">
              Source
            </th>
            <th scope="col">Date</th>
          </tr>
        </thead>
        <tbody>
          {activity.actions.length === 0 ? (
            <tr>
              <td colSpan={3} className="text-center text-secondary py-4">
                No actions found
              </td>
            </tr>
          ) : (
            activity.actions.map((action) => (
              <ActivityRow key={action.id} action={action} initiallyExpanded={signalId !== undefined} />
            ))
          )}
        </tbody>
      </Table>
      {activity.hasMore && <MoreFooter loading={activity.loading} onMore={activity.more} />}
    </Card>
  );
}
