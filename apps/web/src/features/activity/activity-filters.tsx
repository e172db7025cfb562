import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useOptionalProviders } from '../../lib/providers.tsx';
import { type ActivityFilters, isFiltered, NO_FILTERS, RESULTS } from './filters.ts';

export interface FilterOptions {
  /** Webhooks seen in the activity: key → name. */
  hooks: ReadonlyMap<string, string>;
  /** Brokers seen in the activity (provider names). */
  providers: ReadonlySet<string>;
}

/** The trade filters (issue #21): result, webhook, broker, symbol and date; Clear resets them. */
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
  const set = (field: keyof ActivityFilters) => (event: { target: { value: string } }) =>
    onChange({ ...value, [field]: event.target.value });
  return (
    <fieldset className="d-flex flex-wrap gap-2 align-items-end px-3 py-2 border-bottom" data-testid="activity-filters">
      <legend className="visually-hidden">Filter the activity</legend>
      <Form.Group controlId="activity-filter-result">
        <Form.Label className="small mb-0">Result</Form.Label>
        <Form.Select size="sm" value={value.result} onChange={set('result')}>
          <option value="">Any result</option>
          {RESULTS.map((result) => (
            <option key={result} value={result}>
              {result}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="activity-filter-webhook">
        <Form.Label className="small mb-0">Webhook</Form.Label>
        <Form.Select size="sm" value={value.hookKey} onChange={set('hookKey')}>
          <option value="">Any webhook</option>
          {[...options.hooks].map(([key, name]) => (
            <option key={key} value={key}>
              {name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="activity-filter-broker">
        <Form.Label className="small mb-0">Broker</Form.Label>
        <Form.Select size="sm" value={value.providerName} onChange={set('providerName')}>
          <option value="">Any broker</option>
          {[...options.providers].map((name) => (
            <option key={name} value={name}>
              {providers?.title(name) ?? name}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="activity-filter-symbol" className="activity-filter-symbol">
        <Form.Label className="small mb-0">Symbol</Form.Label>
        <Form.Control size="sm" value={value.symbol} maxLength={32} placeholder="AAPL" onChange={set('symbol')} />
      </Form.Group>
      <Form.Group controlId="activity-filter-date">
        <Form.Label className="small mb-0">Date</Form.Label>
        <Form.Control size="sm" type="date" value={value.date} onChange={set('date')} />
      </Form.Group>
      {isFiltered(value) && (
        <Button size="sm" variant="outline-secondary" onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </Button>
      )}
    </fieldset>
  );
}
