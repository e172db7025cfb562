import {
  exampleJson,
  exampleUnavailableMessage,
  findExample,
  isExampleAvailable,
  ORDER_EXAMPLES,
  type Provider,
} from '@router/orders';
import { useEffect, useState } from 'react';
import Accordion from 'react-bootstrap/Accordion';
import { useLocation, useNavigate } from 'react-router';
import { CopyButton } from '../../components/copy-button.tsx';
import { hashId } from '../../components/use-hash-scroll.ts';

export const EXAMPLES_ID = 'examples';

/** Scrolls to a section once it is laid out (after the accordion item opened), and moves the focus there. */
function scrollTo(id: string) {
  setTimeout(() => {
    const target = document.getElementById(id);
    target?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
    const focusable = target?.matches('[tabindex]') ? target : target?.querySelector<HTMLElement>('button');
    focusable?.focus({ preventScroll: true });
  }, 0);
}

/**
 * SPEC §2 examples, deep-linkable by hash (/me/documentation/paper#bracket-order opens that
 * item); the unavailability warning when the broker's reference lacks what an example needs.
 */
export function ExamplesAccordion({ provider, onTry }: { provider: Provider; onTry(json: string): void }) {
  const location = useLocation();
  const navigate = useNavigate();
  const hash = hashId(location.hash);
  const [open, setOpen] = useState<string | null>(() => (findExample(hash) ? hash : null));

  // Follows links to #examples and #<example id>, also when the same link is clicked again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key marks a repeated click.
  useEffect(() => {
    if (findExample(hash)) setOpen(hash);
    if (hash === EXAMPLES_ID || findExample(hash)) scrollTo(hash);
  }, [hash, location.key]);

  const select = (key: string | null) => {
    setOpen(key);
    if (key) navigate({ search: location.search, hash: key }, { replace: true, preventScrollReset: true });
  };

  return (
    <section className="mb-4" aria-labelledby={EXAMPLES_ID}>
      <h2 id={EXAMPLES_ID} className="h5" tabIndex={-1}>
        Examples
      </h2>
      <Accordion activeKey={open} onSelect={(key) => select(typeof key === 'string' ? key : null)}>
        {ORDER_EXAMPLES.map((example) => {
          const json = exampleJson(example, provider);
          const available = isExampleAvailable(example, provider);
          return (
            <Accordion.Item key={example.id} eventKey={example.id} id={example.id}>
              <Accordion.Header as="h3">{example.title}</Accordion.Header>
              <Accordion.Body>
                <p>{example.description}</p>
                {!available && (
                  <div className="alert alert-warning py-2" role="note">
                    {exampleUnavailableMessage(provider)}
                  </div>
                )}
                <pre className="bg-body-tertiary border rounded p-2 small mb-2">
                  <code>{json}</code>
                </pre>
                <div className="d-flex flex-wrap gap-2">
                  <CopyButton text={json} />
                  {available && (
                    <button type="button" className="btn btn-outline-primary" onClick={() => onTry(json)}>
                      Try in the playground
                    </button>
                  )}
                </div>
              </Accordion.Body>
            </Accordion.Item>
          );
        })}
      </Accordion>
    </section>
  );
}
