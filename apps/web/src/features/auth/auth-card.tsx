import type { ReactNode } from 'react';
import { FocusedAlert } from '../../components/focused-alert.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';

/** The centered card of the public identity screens (sign-in, sign-up, reset, confirmation). */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-sm-10 col-md-8 col-lg-6 col-xl-5" style={{ maxWidth: '30rem' }}>
        <section className="card border-0 shadow-sm">
          <div className="card-body p-4 p-sm-5">
            <h1 className="h3 mb-4 text-center">{title}</h1>
            {children}
          </div>
        </section>
        {footer && <div className="text-center mt-3 small text-secondary tap-links">{footer}</div>}
      </div>
    </div>
  );
}

/**
 * The outcome of an identity screen's form (or of its link's check), focused when it appears: the
 * pressed button was disabled by the call, which dropped the focus to the page.
 */
export function FormAlert({ children, variant = 'danger' }: { children: ReactNode; variant?: 'danger' | 'success' }) {
  return (
    <FocusedAlert variant={variant} className="py-2">
      {children}
    </FocusedAlert>
  );
}

export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <button type="submit" className="btn btn-primary w-100" disabled={busy} aria-busy={busy || undefined}>
      {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
      {children}
    </button>
  );
}
