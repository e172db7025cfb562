import { Link } from 'react-router';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useHashScroll } from '../../components/use-hash-scroll.ts';
import { supportHref, useSite } from '../../features/site/use-site.ts';
import { ORDER_ANSWERS } from './answers-orders.tsx';
import { SIGNAL_ANSWERS } from './answers-signals.tsx';
import { BrokerList } from './broker-list.tsx';
import type { FaqEntry } from './faq-entry.ts';

function SupportAnswer() {
  const site = useSite();
  const email = site?.supportEmail;
  return email ? (
    <p className="mb-0">
      Write to <a href={supportHref(email)}>{email}</a>. Say which webhook or broker it is about and paste the answer
      the webhook gave (from the dashboard's Last actions); never send passwords or API keys.
    </p>
  ) : (
    <p className="mb-0">
      This server has no support address set: ask the person or company that runs it. (Operators: set{' '}
      <code>SUPPORT_EMAIL</code> to show one here and in the footer.)
    </p>
  );
}

const ENTRIES: readonly FaqEntry[] = [
  ...SIGNAL_ANSWERS,
  ...ORDER_ANSWERS,
  { id: 'brokers', question: 'Which brokers are supported?', answer: <BrokerList /> },
  { id: 'support', question: 'How do I reach support?', answer: <SupportAnswer /> },
];

/** General FAQs (the footer's first link): real answers for a trader setting up alerts. */
export function Component() {
  useDocumentTitle('General FAQs');
  useHashScroll();
  return (
    <article className="bg-body rounded-3 shadow-sm p-4 p-lg-5 mx-auto prose">
      <h1 className="h2">General FAQs</h1>
      <p className="text-secondary">
        Setting up alerts, what a signal costs and how orders stay exactly once. The order fields are in the{' '}
        <Link to="/me/documentation">documentation</Link>.
      </p>
      <nav aria-label="Questions" className="mb-4">
        <ul className="small ps-3">
          {ENTRIES.map((entry) => (
            <li key={entry.id}>
              <a href={`#${entry.id}`}>{entry.question}</a>
            </li>
          ))}
        </ul>
      </nav>
      {ENTRIES.map((entry) => (
        <section key={entry.id} id={entry.id} aria-labelledby={`${entry.id}-q`} className="mb-4">
          <h2 id={`${entry.id}-q`} className="h5">
            {entry.question}
          </h2>
          {entry.answer}
        </section>
      ))}
    </article>
  );
}
