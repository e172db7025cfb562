import {
  ORDER_CLASS_INFO,
  ORDER_TYPE_LABELS,
  type OrderAction,
  type OrderClass,
  type OrderType,
  type Provider,
  playgroundChoices,
} from '@router/orders';
import Form from 'react-bootstrap/Form';
import type { DraftSelection } from './order-draft.ts';

export interface OrderSelectorsProps {
  provider: Provider;
  selection: DraftSelection;
  onClass(value: OrderClass): void;
  onType(value: OrderType): void;
  onAction(value: OrderAction): void;
}

/** Asset class (only when the broker trades more than one), order type and action. */
export function OrderSelectors({ provider, selection, onClass, onType, onAction }: OrderSelectorsProps) {
  const { classes, types, actions } = playgroundChoices(provider, selection.class);
  const column = 'col-12 col-sm';
  return (
    <div className="row g-3">
      {classes.length > 1 && (
        <Form.Group className={column} controlId="playground-class">
          <Form.Label>Asset class</Form.Label>
          <Form.Select value={selection.class} onChange={(event) => onClass(event.target.value as OrderClass)}>
            {!classes.includes(selection.class) && (
              <option value={selection.class}>{ORDER_CLASS_INFO[selection.class].label}</option>
            )}
            {classes.map((value) => (
              <option key={value} value={value}>
                {ORDER_CLASS_INFO[value].label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      <Form.Group className={column} controlId="playground-type">
        <Form.Label>Order type</Form.Label>
        <Form.Select value={selection.type} onChange={(event) => onType(event.target.value as OrderType)}>
          {!types.includes(selection.type) && <option value={selection.type}>{selection.type}</option>}
          {types.map((value) => (
            <option key={value} value={value}>
              {ORDER_TYPE_LABELS[value]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group className={column} controlId="playground-action">
        <Form.Label>Action</Form.Label>
        <Form.Select value={selection.action} onChange={(event) => onAction(event.target.value as OrderAction)}>
          {(selection.action === '' || !actions.includes(selection.action)) && (
            <option value={selection.action}>{selection.action || '—'}</option>
          )}
          {actions.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
    </div>
  );
}
