import { Link } from 'react-router';
import { ExternalLink } from '../../features/documentation/external-link.tsx';
import { TRADINGVIEW_VARIABLES_URL, TRADINGVIEW_WEBHOOKS_URL } from '../../features/documentation/links.ts';
import type { FaqEntry } from './faq-entry.ts';

// Setting up alerts: TradingView, reachability, placeholders, test webhooks.
export const SIGNAL_ANSWERS: readonly FaqEntry[] = [
  {
    id: 'tradingview',
    question: 'How do I send TradingView alerts to my broker?',
    answer: (
      <>
        <ol>
          <li>
            Connect your broker in <Link to="/me/connector">Brokers &amp; Webhooks</Link> (or Paper Trading to
            practise).
          </li>
          <li>Create a webhook on the account that should trade.</li>
          <li>
            Press <strong>Connect TradingView</strong> on the webhook: it shows the webhook URL, a message made for your
            broker and TradingView's steps, each with a copy button.
          </li>
          <li>
            In TradingView, create the alert, paste the message into its <strong>Message</strong> box, tick{' '}
            <strong>Webhook URL</strong> under Notifications and paste the URL.
          </li>
        </ol>
        <p className="mb-0">
          TradingView's webhooks need a paid plan and two-factor authentication on your TradingView account (
          <ExternalLink href={TRADINGVIEW_WEBHOOKS_URL}>TradingView: about webhooks</ExternalLink>).
        </p>
      </>
    ),
  },
  {
    id: 'ports',
    question: 'Why does TradingView never reach my webhook?',
    answer: (
      <>
        <p>
          TradingView posts alerts only to public internet addresses, over http or https, on port 80 or 443. A server
          reached as <code>localhost</code>, a home or office network address (192.168.x.x, 10.x.x.x) or on another port
          such as 3000 never receives them. The webhook panel warns when the URL has this problem.
        </p>
        <p className="mb-0">
          The fix, for whoever runs the server: put it behind a reverse proxy with a domain name and HTTPS on port 443
          (Caddy, nginx, a cloud load balancer) or a tunnel (Cloudflare Tunnel, ngrok), and set the server's{' '}
          <code>PUBLIC_URL</code> to that address; the webhook URLs then use it. TradingView also gives up on an answer
          after 3 seconds: the server answers within that time, and a slow broker's order is reported as{' '}
          <code>accepted</code> and finished in the background.
        </p>
      </>
    ),
  },
  {
    id: 'placeholders',
    question: 'How do {{ticker}}, {{close}} and the strategy placeholders work?',
    answer: (
      <>
        <p>
          TradingView replaces placeholders in the message before it sends it, so one alert serves any symbol and both
          directions. The most useful ones:
        </p>
        <ul>
          <li>
            <code>{'{{ticker}}'}</code>: the chart's symbol; <code>{'{{close}}'}</code>: the bar's close, the last price
            when the alert fires;
          </li>
          <li>
            <code>{'{{strategy.order.action}}'}</code>: buy or sell; <code>{'{{strategy.order.contracts}}'}</code>: the
            size the strategy traded; <code>{'{{strategy.order.id}}'}</code>: the order's id in the script;
          </li>
          <li>
            <code>{'{{timenow}}'}</code>: when the alert fired.
          </li>
        </ul>
        <p>
          Strategy placeholders are filled only in alerts on a strategy. Any number may be an expression, e.g.{' '}
          <code>"limit_price": "{'{{close}}'} * 0.99"</code>. TrendSpider's equivalents are <code>%alert_symbol%</code>{' '}
          and <code>%last_price%</code>; in Zapier you insert the trigger's fields.{' '}
          <ExternalLink href={TRADINGVIEW_VARIABLES_URL}>All of TradingView's placeholders</ExternalLink>.
        </p>
        <p className="mb-0">
          A placeholder left unfilled (for example a strategy placeholder in a plain alert) is refused with a message
          naming it, and no order is placed.
        </p>
      </>
    ),
  },
  {
    id: 'test-webhooks',
    question: 'How do I test without placing a real order?',
    answer: (
      <>
        <p>
          Tick <strong>Test webhook</strong> when you create a webhook. A test webhook checks each signal exactly as a
          live one does and answers with the order as it would be sent (status <code>draft</code>), but never sends it
          to the broker, and costs nothing.
        </p>
        <p className="mb-0">
          On any webhook, <strong>Connect TradingView</strong> has a <strong>Send test signal</strong> button that posts
          the message, filled with sample values, and shows the answer. On a live webhook it asks first: the signal
          places a real order and spends a credit. Paper Trading is a simulated broker for practising with live
          webhooks.
        </p>
      </>
    ),
  },
];
