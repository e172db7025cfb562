import { buildSampleOrder, type OrderDraft, type Provider } from '@router/orders';
import { useCallback, useMemo, useRef, useState } from 'react';
import { formatDraft, prefillDraft, readDraft } from './order-draft.ts';

export interface OrderText {
  text: string;
  setText(text: string): void;
  /** The order the selectors show: the text's, or the last one that could be read. */
  draft: OrderDraft;
  /** Rewrites the order through one of the SPEC §4 rules; unreadable text is left as it is. */
  update(rule: (draft: OrderDraft) => OrderDraft): void;
}

/** The playground's order text: the provider's sample order, prefilled from the query string. */
export function useOrderText(provider: Provider, search: string): OrderText {
  const initial = useMemo(
    () => prefillDraft(buildSampleOrder({ provider }), new URLSearchParams(search), provider),
    [provider, search],
  );
  const [text, setText] = useState(() => formatDraft(initial));
  const lastRead = useRef<OrderDraft>(initial);
  const draft = useMemo(() => {
    const read = readDraft(text);
    if (read) lastRead.current = read;
    return lastRead.current;
  }, [text]);

  // Text that cannot be read is left as typed: rewriting it from the last readable order would
  // throw away the edits since; the parse error shows when the order is tested.
  const update = useCallback((rule: (draft: OrderDraft) => OrderDraft) => {
    setText((current) => {
      const read = readDraft(current);
      return read ? formatDraft(rule(read)) : current;
    });
  }, []);

  return { text, setText, draft, update };
}
