import { buildSampleOrder, type OrderDraft, type Provider } from '@router/orders';
import { useCallback, useMemo, useRef, useState } from 'react';
import { formatDraft, prefillDraft, readDraft, readDraftOrProblem } from './order-draft.ts';

export interface OrderText {
  text: string;
  setText(text: string): void;
  /** The order the selectors show: the text's, or the last one that could be read. */
  draft: OrderDraft;
  /** Rewrites the order through one of the SPEC §4 rules; unreadable text is left as it is. */
  update(rule: (draft: OrderDraft) => OrderDraft): void;
  /** Why the last `update` changed nothing (the text cannot be read), until the text changes. */
  unchanged: string | null;
}

/** The playground's order text: the provider's sample order, prefilled from the query string. */
export function useOrderText(provider: Provider, search: string): OrderText {
  const initial = useMemo(
    () => prefillDraft(buildSampleOrder({ provider }), new URLSearchParams(search), provider),
    [provider, search],
  );
  const [text, setShownText] = useState(() => formatDraft(initial));
  const [unchanged, setUnchanged] = useState<string | null>(null);
  // The text as last set, for rules applied one after another before a render.
  const latest = useRef(text);
  const lastRead = useRef<OrderDraft>(initial);
  const draft = useMemo(() => {
    const read = readDraft(text);
    if (read) lastRead.current = read;
    return lastRead.current;
  }, [text]);

  const setText = useCallback((next: string) => {
    latest.current = next;
    setShownText(next);
    setUnchanged(null);
  }, []);

  // Text that cannot be read is left as typed: rewriting it from the last readable order would
  // throw away the edits since. The trader is told why nothing changed.
  const update = useCallback(
    (rule: (draft: OrderDraft) => OrderDraft) => {
      const read = readDraftOrProblem(latest.current);
      if ('problem' in read) setUnchanged(`The order was not changed: ${read.problem}. Correct it first.`);
      else setText(formatDraft(rule(read.draft)));
    },
    [setText],
  );

  return { text, setText, draft, update, unchanged };
}
