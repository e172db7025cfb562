import { parseOrderText } from '@router/orders';
import type { KeyboardEvent, RefObject } from 'react';
import Form from 'react-bootstrap/Form';
import { CopyButton } from '../../components/copy-button.tsx';
import { HashLink } from '../../components/hash-link.tsx';

export interface OrderEditorProps {
  text: string;
  onText(text: string): void;
  onTest(): void;
  testing: boolean;
  /** Why a selector or a picked value changed nothing (the text cannot be read). */
  unchanged?: string | null;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
}

/** The sample order as editable JSON, with Copy, the Examples link and Test (Ctrl+Enter). */
export function OrderEditor({ text, onText, onTest, testing, unchanged, textareaRef }: OrderEditorProps) {
  const rows = Math.min(Math.max(text.split('\n').length, 6), 24);
  // A webhook takes strict JSON only: a text read after repair is copied as the strict body it became.
  const read = parseOrderText(text);
  const strict = read.ok && read.repaired ? JSON.stringify(read.value, null, 2) : undefined;
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      // As the Test button: no second preview while one is on its way.
      if (!testing) onTest();
    }
  };
  return (
    <Form.Group controlId="playground-order">
      <Form.Label>Order (JSON)</Form.Label>
      <Form.Control
        as="textarea"
        ref={textareaRef}
        className="font-monospace small playground-order"
        rows={rows}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        value={text}
        onChange={(event) => onText(event.target.value)}
        onKeyDown={onKeyDown}
        isInvalid={Boolean(unchanged)}
        aria-describedby={unchanged ? 'playground-order-help playground-order-unchanged' : 'playground-order-help'}
      />
      {unchanged && (
        <div id="playground-order-unchanged" className="invalid-feedback d-block" role="alert">
          {unchanged}
        </div>
      )}
      <Form.Text id="playground-order-help">
        Edit freely: comments, single quotes and trailing commas are repaired here (a webhook takes strict JSON only;
        Test shows the body to paste). Ctrl+Enter tests.
      </Form.Text>
      <div className="d-flex flex-wrap gap-2 mt-2">
        {strict === undefined ? (
          <CopyButton key="text" text={text} />
        ) : (
          <CopyButton key="strict" text={strict} label="Copy as strict JSON" />
        )}
        <HashLink hash="examples" className="btn btn-outline-secondary">
          Examples
        </HashLink>
        <button type="button" className="btn btn-primary ms-auto" onClick={onTest} disabled={testing}>
          {testing ? 'Testing…' : 'Test'}
        </button>
      </div>
    </Form.Group>
  );
}
