import { type AlertPlatform, alertJson, alertMessages, fillPlaceholders, type Provider } from '@router/orders';
import { HIDDEN_HOOK_URL_TEXT, HIDDEN_SHORT_KEY } from '@router/shared';
import { useCallback, useId, useMemo, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { BrandLogo } from '../connectors/brand-logo.tsx';
import type { HookItem } from './hook-model.ts';
import { HookUrlField } from './hook-url-field.tsx';
import { PlatformGuide } from './platform-guide.tsx';
import { TestSignal } from './test-signal.tsx';

const PLATFORMS: ReadonlyArray<{ name: AlertPlatform; title: string }> = [
  { name: 'tradingview', title: 'TradingView' },
  { name: 'trendspider', title: 'TrendSpider' },
  { name: 'zapier', title: 'Zapier' },
];

/**
 * "Connect TradingView" of one webhook (issue #21): the URL, the messages for its broker with
 * each platform's steps, and a test signal through the hook. Its title names the platform whose
 * tab is chosen. A dialog: focus stays inside and returns to the button that opened it.
 */
export function PlatformPanel({
  hook,
  provider,
  onClose,
}: {
  hook: HookItem;
  provider: Provider;
  onClose: () => void;
}) {
  const id = useId();
  const [platform, setPlatform] = useState<AlertPlatform>('tradingview');
  const messages = useMemo(() => alertMessages(provider), [provider]);
  const first = messages.find((message) => message.platform === platform);
  const platformTitle = PLATFORMS.find(({ name }) => name === platform)?.title ?? 'TradingView';
  const makeSample = useCallback(
    () => (first ? fillPlaceholders(alertJson(first), provider) : '{}'),
    [first, provider],
  );

  return (
    <Modal show onHide={onClose} size="lg" fullscreen="md-down" scrollable aria-labelledby={`${id}-title`}>
      <Modal.Header closeButton>
        <Modal.Title id={`${id}-title`} as="h2" className="h5">
          Connect {platformTitle} · {hook.name}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-secondary">
          Alerts posted to this URL become orders at {provider.title}, account {hook.accountId}
          {hook.isTest ? ' (test webhook: answered as drafts, never sent to the broker)' : ''}.
        </p>
        <HookUrlField url={hook.url} label="Webhook URL" className="mb-3" />
        <Tabs
          id={`${id}-platforms`}
          activeKey={platform}
          onSelect={(key) => setPlatform((key as AlertPlatform | null) ?? 'tradingview')}
        >
          {PLATFORMS.map(({ name, title }) => (
            <Tab
              key={name}
              eventKey={name}
              title={
                <span className="d-inline-flex align-items-center gap-2">
                  <BrandLogo name={name} title={title} size={1.5} />
                  {title}
                </span>
              }
            >
              <PlatformGuide
                platform={name}
                url={hook.url}
                messages={messages.filter((message) => message.platform === name)}
              />
            </Tab>
          ))}
        </Tabs>
        {hook.shortKey === HIDDEN_SHORT_KEY ? (
          <p className="small text-secondary border-top pt-3 mt-2">{HIDDEN_HOOK_URL_TEXT}</p>
        ) : (
          <TestSignal hook={hook} makeSample={makeSample} brokerTitle={provider.title} />
        )}
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Close
        </button>
      </Modal.Footer>
    </Modal>
  );
}
