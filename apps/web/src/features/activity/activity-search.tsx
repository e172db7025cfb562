import { ACTIVITY_SEARCH_MAX_LENGTH, ACTIVITY_SEARCH_TOO_SHORT } from '@router/shared';
import Form from 'react-bootstrap/Form';
import { isSearchTooShort } from './search-rules.ts';

/** SPEC §2, §4: the search box; 1–2 characters mark it invalid. */
export function ActivitySearch({ value, onChange }: { value: string; onChange: (text: string) => void }) {
  const invalid = isSearchTooShort(value);
  return (
    <Form.Group controlId="activity-search" className="activity-search position-relative">
      <Form.Label visuallyHidden>Search actions</Form.Label>
      <Form.Control
        type="search"
        size="sm"
        placeholder="Search example: AAPL"
        value={value}
        maxLength={ACTIVITY_SEARCH_MAX_LENGTH}
        isInvalid={invalid}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? 'activity-search-feedback' : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <Form.Control.Feedback type="invalid" tooltip id="activity-search-feedback">
        {ACTIVITY_SEARCH_TOO_SHORT}
      </Form.Control.Feedback>
    </Form.Group>
  );
}
