import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useHashScroll } from '../../components/use-hash-scroll.ts';
import { TERMS_SECTIONS } from './sections.ts';
import { TERMS_LAST_MODIFIED } from './terms-section.ts';

/** SPEC §2 Terms of service; its facts are SPEC §9's. Static text. */
export function Component() {
  useDocumentTitle('Terms of service');
  useHashScroll();
  return (
    <article className="terms bg-body rounded-3 shadow-sm p-4 p-lg-5 mx-auto">
      <h1 className="h2 mb-1">Terms of service</h1>
      <p className="text-secondary">Last modified: {TERMS_LAST_MODIFIED}</p>
      <nav aria-label="Sections" className="mb-4">
        <ol className="terms-contents small">
          {TERMS_SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {TERMS_SECTIONS.map((section, index) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mb-4">
          <h2 id={`${section.id}-title`} className="h5">
            {index + 1}. {section.title}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 48)}>{paragraph}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
