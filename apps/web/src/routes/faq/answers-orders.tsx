import { Link } from 'react-router';
import type { FaqEntry } from './faq-entry.ts';

// What happens to a signal: credits, exactly once, client_id, deactivated webhooks.
export const ORDER_ANSWERS: readonly FaqEntry[] = [
  {
    id: 'credits',
    question: 'What does a signal cost?',
    answer: (
      <>
        <p>
          Each signal sent to a live webhook spends one credit, shown as <strong>signals left</strong> on the dashboard
          and in <Link to="/me/account">Account &amp; Billing</Link>, where you can buy more or subscribe. New accounts
          start with free credits.
        </p>
        <p className="mb-0">
          Signals to test webhooks are free. A signal refused before it reaches the broker (a mistake in the message, a
          deactivated webhook) costs nothing, and when the broker refuses an order the credit is given back. With no
          credits left, signals are refused with 'No signals left'; manual trading at your broker is not affected.
        </p>
      </>
    ),
  },
  {
    id: 'exactly-once',
    question: 'Can one alert place two orders?',
    answer: (
      <>
        <p>
          No. TradingView sends an alert again when it gets no answer in time, and networks repeat requests. A repeat of
          the same message on the same webhook within a short window (a minute, unless the operator set another) is
          recognised: it gets the first answer and places nothing. The order is sent to the broker with the signal's own
          id, so after an interruption the server looks the order up at the broker instead of sending it again.
        </p>
        <p className="mb-0">
          The other side of this: two identical messages sent on purpose within that window are one signal. Give each a
          different <code>client_id</code> (next question) when that matters.
        </p>
      </>
    ),
  },
  {
    id: 'client-id',
    question: 'What is client_id for?',
    answer: (
      <>
        <p>
          <code>client_id</code> is your own id for a signal (up to 64 characters). When a message has one, repeats are
          recognised by it instead of by the whole message: two signals with different ids are two orders even if
          everything else is the same, and a resend with the same id is one order even if the rest changed.
        </p>
        <p className="mb-0">
          The strategy alert the app offers uses{' '}
          <code>
            "client_id": "{'{{strategy.order.id}}'}-{'{{timenow}}'}"
          </code>
          : every strategy order gets its own id, and TradingView's resend of the same alert keeps it. Brokers that do
          not take it are given a message without it.
        </p>
      </>
    ),
  },
  {
    id: 'deactivated',
    question: 'Why was my webhook deactivated?',
    answer: (
      <p className="mb-0">
        A webhook that receives many invalid requests within an hour is turned off, so a broken alert or a leaked URL
        cannot run on; a webhook whose broker account was disconnected stops too. The webhook says why in{' '}
        <Link to="/me/connector">Brokers &amp; Webhooks</Link>. Fix the alert message (the dashboard's Last actions show
        what was wrong), then press <strong>Reactivate</strong>.
      </p>
    ),
  },
];
