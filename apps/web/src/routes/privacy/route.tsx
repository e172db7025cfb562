import { Link } from 'react-router';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useHashScroll } from '../../components/use-hash-scroll.ts';
import { supportHref, useSite } from '../../features/site/use-site.ts';
import { PRODUCT_NAME, TERMS_PATH } from '../../lib/links.ts';
import { PRIVACY_SECTIONS } from './sections.tsx';

/** The privacy policy (the footer's Privacy policy); the terms' section 12 summarises it. */
export function Component() {
  useDocumentTitle('Privacy policy');
  useHashScroll();
  const site = useSite();
  const email = site?.supportEmail;
  return (
    <article className="bg-body rounded-3 shadow-sm p-4 p-lg-5 mx-auto prose">
      <h1 className="h2">Privacy policy</h1>
      <p className="text-secondary">
        {PRODUCT_NAME} is software that its operator runs: the person or company behind this address is responsible for
        the data it keeps. This page says what the software keeps and why; the{' '}
        <Link to={`${TERMS_PATH}#privacy`}>terms of service</Link> say the same in short.
      </p>
      {PRIVACY_SECTIONS.map((section) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="mb-4">
          <h2 id={`${section.id}-title`} className="h5">
            {section.title}
          </h2>
          {section.body}
        </section>
      ))}
      <section id="contact" aria-labelledby="contact-title">
        <h2 id="contact-title" className="h5">
          Contact
        </h2>
        <p className="mb-0">
          {email ? (
            <>
              Questions and requests: <a href={supportHref(email)}>{email}</a>.
            </>
          ) : (
            'Questions and requests: ask the operator of this server (it has no support address set).'
          )}
        </p>
      </section>
    </article>
  );
}
