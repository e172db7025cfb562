import {
  ANSWER_STATUSES,
  defaultExamplePayload,
  type Provider,
  SAMPLE_ERROR_RESPONSE,
  SAMPLE_SUCCESS_RESPONSE,
} from '@router/orders';
import type { ReactNode } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';
import { ExternalLink } from './external-link.tsx';
import { TRADINGVIEW_WEBHOOKS_URL } from './links.ts';

const SUCCESS = JSON.stringify(SAMPLE_SUCCESS_RESPONSE, null, 2);

/** What a webhook answers an order without a symbol (SPEC §8's sample body). */
const ERROR = JSON.stringify(SAMPLE_ERROR_RESPONSE, null, 2);

const or = (values: readonly string[]) => values.join(' or ');

function Code({ children, copy }: { children: string; copy?: boolean }) {
  return (
    <div className="mb-3">
      <pre className="bg-body-tertiary border rounded p-2 small mb-2">
        <code>{children}</code>
      </pre>
      {copy && <CopyButton text={children} />}
    </div>
  );
}

function Titled({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <h3 className="h6 mt-3">{title}</h3>
      {children}
    </>
  );
}

/** SPEC §2 static docs: the webhook URL, the default payload, and the Success (201) and Error (400) responses. */
export function Responses({ provider }: { provider: Provider }) {
  const payload = JSON.stringify(defaultExamplePayload(provider), null, 2);
  const origin = globalThis.location?.origin ?? '';
  return (
    <section className="mb-4" aria-labelledby="webhook-title">
      <h2 id="webhook-title" className="h5">
        Sending orders to a webhook
      </h2>
      <p>
        Each webhook of a connected broker account has a URL of the form{' '}
        <code>
          {origin}/hook/{'{shortKey}'}
        </code>{' '}
        (copy it from Brokers &amp; Webhooks). POST the order as the request body, as <code>application/json</code> or
        as <code>text/plain</code> holding JSON:{' '}
        <ExternalLink href={TRADINGVIEW_WEBHOOKS_URL}>TradingView</ExternalLink> sends its alert message as{' '}
        <code>text/plain</code> (and as <code>application/json</code> only when the message is valid JSON), and both are
        read the same way.
      </p>
      <Titled title="Example payload">
        <Code copy>{payload}</Code>
      </Titled>
      <Titled title="Success (201)">
        <Code>{SUCCESS}</Code>
        <p className="small text-secondary">
          <code>id</code> is the broker's order id, <code>status</code> {or(ANSWER_STATUSES.order)} (
          {or(ANSWER_STATUSES.cancel)} for a cancel; {or(ANSWER_STATUSES.test)} for test webhooks, which also answer the
          order as read in <code>order</code>), <code>price</code> the average fill price when there is one.
        </p>
      </Titled>
      <Titled title="Error (400)">
        <Code>{ERROR}</Code>
        <p className="small text-secondary mb-0">
          <code>status</code> is ValidationError, ExecutionError, AuthenticationError, ForbiddenError or Error; broker
          messages are prefixed with the broker's title.
        </p>
      </Titled>
    </section>
  );
}
