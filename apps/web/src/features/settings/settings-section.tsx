import type { ReactNode } from 'react';

export function SettingsSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} className="card mb-4" aria-labelledby={`${id}-title`} style={{ scrollMarginTop: '1rem' }}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="h5 card-title mb-3">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}
