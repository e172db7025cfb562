import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useOptionalProviders } from '../../lib/providers.tsx';
import { type ActivityFilters, isFiltered, NO_FILTERS, RESULTS, resultLabel } from './filters.ts';
import { useOwnWebhooks } from './use-own-webhooks.ts';

export interface FilterOptions {
  /** Webhooks seen in the activity: key → name. */
  hooks: ReadonlyMap<string, string>;
  /** Brokers seen in the activity (provider names). */
  providers: ReadonlySet<string>;
}

/**
 * The longest symbol the order language takes (`MAX_SYMBOL_LENGTH` of @router/orders, which the
 * dashboard's bundle does not load for one number; a test keeps them equal): every symbol a signal
 * may carry can be typed.
 */
export const SYMBOL_FILTER_MAX_LENGTH = 64;

type Change = (event: { target: { value: string } }) => void;

/**
 * One filter's choice: all values, or one of `options` ([value, label]). A chosen value not among
 * them (a link's webhook with no calls shown, or deleted) is still offered, under its own name:
 * the select would otherwise read 'Any …' while the list is filtered.
 */
function FilterSelect(props: {
  id: string;
  label: string;
  anyLabel: string;
  value: string;
  options: ReadonlyArray<readonly [string, string]>;
  onChange: Change;
}) {
  const options =
    props.value === '' || props.options.some(([value]) => value === props.value)
      ? props.options
      : [...props.options, [props.value, props.value] as const];
  return (
    <Form.Group controlId={`activity-filter-${props.id}`}>
      <Form.Label className="small mb-0">{props.label}</Form.Label>
      <Form.Select size="sm" value={props.value} onChange={props.onChange}>
        <option value="">{props.anyLabel}</option>
        {options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}

/**
 * The trade filters (issue #21): result, webhook, broker, symbol and a day or range of days (Date,
 * To); Clear resets them. The webhooks and brokers offered: those of the entries seen, and every
 * one of the trader's (by its name as it is now).
 */
export function ActivityFiltersBar({
  value,
  options,
  onChange,
}: {
  value: ActivityFilters;
  options: FilterOptions;
  onChange: (filters: ActivityFilters) => void;
}) {
  const providers = useOptionalProviders();
  const own = useOwnWebhooks();
  const hooks = new Map([...options.hooks, ...own.hooks]);
  const providerNames = new Set([...options.providers, ...own.providers]);
  const set =
    (field: keyof ActivityFilters): Change =>
    (event) =>
      onChange({ ...value, [field]: event.target.value });
  return (
    <fieldset className="d-flex flex-wrap gap-2 align-items-end px-3 py-2 border-bottom" data-testid="activity-filters">
      <legend className="visually-hidden">Filter the activity</legend>
      <FilterSelect
        id="result"
        label="Result"
        anyLabel="Any result"
        value={value.result}
        options={RESULTS.map((result) => [result, resultLabel(result)])}
        onChange={set('result')}
      />
      <FilterSelect
        id="webhook"
        label="Webhook"
        anyLabel="Any webhook"
        value={value.hookKey}
        options={[...hooks]}
        onChange={set('hookKey')}
      />
      <FilterSelect
        id="broker"
        label="Broker"
        anyLabel="Any broker"
        value={value.providerName}
        options={[...providerNames].map((name) => [name, providers?.title(name) ?? name])}
        onChange={set('providerName')}
      />
      <Form.Group controlId="activity-filter-symbol" className="activity-filter-symbol">
        <Form.Label className="small mb-0">Symbol</Form.Label>
        <Form.Control
          size="sm"
          value={value.symbol}
          maxLength={SYMBOL_FILTER_MAX_LENGTH}
          placeholder="e.g. AAPL"
          onChange={set('symbol')}
        />
      </Form.Group>
      <Form.Group controlId="activity-filter-date">
        <Form.Label className="small mb-0">Date</Form.Label>
        <Form.Control size="sm" type="date" value={value.date} onChange={set('date')} />
      </Form.Group>
      <Form.Group controlId="activity-filter-date-to">
        <Form.Label className="small mb-0">To</Form.Label>
        <Form.Control
          size="sm"
          type="date"
          value={value.dateTo}
          min={value.date || undefined}
          onChange={set('dateTo')}
        />
      </Form.Group>
      {isFiltered(value) && (
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={() => {
            onChange(NO_FILTERS);
            // The button goes away with the filters: focus stays in the bar, not lost to the page.
            document.getElementById('activity-filter-result')?.focus();
          }}
        >
          Clear filters
        </Button>
      )}
    </fieldset>
  );
}
