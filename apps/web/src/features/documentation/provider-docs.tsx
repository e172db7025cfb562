import type { Provider } from '@router/orders';
import { useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { BrokerOptions } from '../playground/broker-options.ts';
import type { PlaygroundConnector } from '../playground/connectors.ts';
import { pickValue, typedValue } from '../playground/order-draft.ts';
import { Playground } from '../playground/playground.tsx';
import { useOrderText } from '../playground/use-order-text.ts';
import { ExamplesAccordion } from './examples-accordion.tsx';
import { Notes } from './notes.tsx';
import { ParametersTable } from './parameters-table.tsx';
import { Responses } from './responses.tsx';

export interface ProviderDocsProps {
  provider: Provider;
  brokers: BrokerOptions;
  onBroker(name: string): void;
  connectors: readonly PlaygroundConnector[];
}

const FLASH_MS = 900;

/** One broker's documentation and playground; mounted afresh (keyed) for each broker. */
export function ProviderDocs({ provider, brokers, onBroker, connectors }: ProviderDocsProps) {
  const location = useLocation();
  // The query string prefills the first order only; later hash links keep it but change nothing.
  const [search] = useState(location.search);
  const order = useOrderText(provider, search);
  const textareaRef = useRef<HTMLTextAreaElement>(null);

  /** Shows the changed order: the editor scrolls into view and flashes. */
  const reveal = () => {
    const textarea = textareaRef.current;
    if (!textarea) return;
    textarea.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
    textarea.classList.add('playground-flash');
    setTimeout(() => textarea.classList.remove('playground-flash'), FLASH_MS);
  };

  const pick = (parameter: string, value: string | number) => {
    const typed = typeof value === 'string' && /^[[{]/.test(value.trim()) ? typedValue(value) : value;
    order.update((draft) => pickValue(draft, parameter, typed, provider));
    reveal();
  };

  const tryExample = (json: string) => {
    order.setText(json);
    reveal();
  };

  return (
    <>
      <Playground
        provider={provider}
        brokers={brokers}
        onBroker={onBroker}
        connectors={connectors}
        order={order}
        textareaRef={textareaRef}
      />
      <ParametersTable provider={provider} onPick={pick} />
      <Notes provider={provider} />
      <ExamplesAccordion provider={provider} onTry={tryExample} />
      <Responses provider={provider} />
    </>
  );
}
