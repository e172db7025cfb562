import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';

/**
 * A link to a section of this screen that keeps the query string; the examples accordion
 * watches the hash to open and scroll (deep links such as #bracket-order work the same way).
 */
export function HashLink({ hash, className, children }: { hash: string; className?: string; children: ReactNode }) {
  const { search } = useLocation();
  return (
    <Link to={{ search, hash }} className={className} preventScrollReset>
      {children}
    </Link>
  );
}
