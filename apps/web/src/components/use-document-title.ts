import { useEffect } from 'react';
import { PRODUCT_NAME } from '../lib/links.ts';

export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);
}
