import type { ReactNode } from 'react';
import { useDocumentTitle } from './use-document-title.ts';

/** An honest screen for a route whose content comes in a later release. */
export function PlaceholderScreen({ title, children }: { title: string; children?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section>
      <h1 className="h3 mb-3">{title}</h1>
      {children ?? <p className="text-secondary">This screen is coming in a later release.</p>}
    </section>
  );
}
