import { useDocumentTitle } from '../../components/use-document-title.ts';
import { UpgradeForm } from '../../features/billing/upgrade-form.tsx';

/** SPEC §2 Professional application (a professional is sent away by the route guard). */
export function Component() {
  useDocumentTitle('Professional status');
  return (
    <section style={{ maxWidth: '46rem' }}>
      <h1 className="h3 mb-2">Professional status</h1>
      <p className="text-secondary mb-4">
        Professional users register their own applications and use the API. Tell us about your business; status comes
        with the payment that follows.
      </p>
      <UpgradeForm />
    </section>
  );
}
