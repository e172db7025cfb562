import type { Provider } from '@router/orders';
import Form from 'react-bootstrap/Form';
import type { BrokerOptions } from './broker-options.ts';
import type { AccountChoice } from './connectors.ts';

const optionLabel = (provider: Provider) => (provider.status === 'beta' ? `${provider.title} (beta)` : provider.title);

/** SPEC §2: connected brokers, a separator, then the other active brokers. */
export function BrokerSelect(props: { options: BrokerOptions; value: string; onChange(name: string): void }) {
  const { connected, others } = props.options;
  return (
    <Form.Group controlId="playground-broker">
      <Form.Label>Broker</Form.Label>
      <Form.Select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {connected.map((provider) => (
          <option key={provider.name} value={provider.name}>
            {optionLabel(provider)}
          </option>
        ))}
        {connected.length > 0 && others.length > 0 && (
          <option disabled value="" data-testid="broker-separator">
            ──────────
          </option>
        )}
        {others.map((provider) => (
          <option key={provider.name} value={provider.name}>
            {optionLabel(provider)}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}

/** Shown when the broker's connectors hold more than one account. */
export function AccountSelect(props: { choices: AccountChoice[]; value: string; onChange(value: string): void }) {
  if (props.choices.length < 2) return null;
  return (
    <Form.Group controlId="playground-account">
      <Form.Label>Account</Form.Label>
      <Form.Select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.isActive ? choice.label : `${choice.label} (disconnected)`}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}
