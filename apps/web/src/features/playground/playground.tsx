import { applyAction, applyClass, applyType, type Provider } from '@router/orders';
import { type RefObject, useState } from 'react';
import type { BrokerOptions } from './broker-options.ts';
import { AccountSelect, BrokerSelect } from './broker-select.tsx';
import { type AccountChoice, accountChoices, type PlaygroundConnector } from './connectors.ts';
import { draftSelection } from './order-draft.ts';
import { OrderEditor } from './order-editor.tsx';
import { OrderSelectors } from './order-selectors.tsx';
import { SymbolMapsNote } from './symbol-maps-note.tsx';
import { TestResult } from './test-result.tsx';
import { useOrderTest } from './use-order-test.ts';
import type { OrderText } from './use-order-text.ts';

export interface PlaygroundProps {
  provider: Provider;
  brokers: BrokerOptions;
  onBroker(name: string): void;
  connectors: readonly PlaygroundConnector[];
  order: OrderText;
  textareaRef: RefObject<HTMLTextAreaElement | null>;
}

/** SPEC §2 playground: broker, account, class, type and action; the order; Test in preview mode. */
export function Playground({ provider, brokers, onBroker, connectors, order, textareaRef }: PlaygroundProps) {
  const choices = accountChoices(connectors, provider.name);
  const [accountValue, setAccountValue] = useState(choices[0]?.value ?? '');
  const choice: AccountChoice | undefined = choices.find((item) => item.value === accountValue) ?? choices[0];
  const selection = draftSelection(order.draft, provider);
  const test = useOrderTest();

  return (
    <section className="card shadow-sm mb-4" aria-labelledby="playground-title">
      <div className="card-body">
        <h2 id="playground-title" className="h5 card-title mb-3">
          Playground
        </h2>
        <div className="row g-3 mb-3">
          <div className="col-12 col-md">
            <BrokerSelect options={brokers} value={provider.name} onChange={onBroker} />
          </div>
          {choices.length > 1 && (
            <div className="col-12 col-md">
              <AccountSelect
                choices={choices}
                value={choice?.value ?? ''}
                onChange={(value) => {
                  // A result shown is the answer for the account it was sent to, not this one.
                  if (value !== choice?.value) test.clear();
                  setAccountValue(value);
                }}
              />
            </div>
          )}
        </div>
        <div className="mb-3">
          <OrderSelectors
            provider={provider}
            selection={selection}
            onClass={(value) => order.update((draft) => applyClass(draft, value, provider))}
            onType={(value) => order.update((draft) => applyType(draft, value, provider))}
            onAction={(value) => order.update((draft) => applyAction(draft, value, provider))}
          />
        </div>
        <OrderEditor
          text={order.text}
          onText={order.setText}
          onTest={() => void test.run(order.text, choice)}
          testing={test.testing}
          unchanged={order.unchanged}
          textareaRef={textareaRef}
        />
        <div className="mt-3">
          {test.outcome && <TestResult outcome={test.outcome} providerName={provider.name} onUseBody={order.setText} />}
        </div>
        <SymbolMapsNote choice={choice} draft={order.draft} />
      </div>
    </section>
  );
}
