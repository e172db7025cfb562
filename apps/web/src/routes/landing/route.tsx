import { Link } from 'react-router';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { BrandLogo } from '../../features/connectors/brand-logo.tsx';
import { supportedProviders } from '../../features/connectors/provider-search.ts';
import { FAQ_PATH, PRODUCT_NAME } from '../../lib/links.ts';
import { useProviders } from '../../lib/providers.tsx';

const ALERT = `{
  "symbol": "{{ticker}}",
  "action": "{{strategy.order.action}}",
  "quantity": "{{strategy.order.contracts}}"
}`;

const ANSWER = `201  {"id": "…", "status": "filled", "price": 187.42}`;

const PLATFORMS = [
  ['tradingview', 'TradingView'],
  ['trendspider', 'TrendSpider'],
  ['zapier', 'Zapier'],
] as const;

const STEPS = [
  ['Connect your broker', 'Sign in to your brokerage or exchange from the app, or start with Paper Trading.'],
  ['Create a webhook', 'Paste its URL and the ready-made message into a TradingView, TrendSpider or Zapier alert.'],
  [
    'The alert fires',
    'The message becomes exactly one order at your broker; the answer and the trade show in your dashboard.',
  ],
] as const;

/** `/` for visitors (signed-in users go on to /me): what the product does, in one screen. */
export function Component() {
  useDocumentTitle('Alerts to orders');
  const { providers } = useProviders();
  const brokers = supportedProviders(providers.values());
  return (
    <div className="mx-auto landing">
      <section className="row g-4 align-items-center mb-4" aria-labelledby="landing-title">
        <div className="col-lg-7">
          <h1 id="landing-title" className="display-6 fw-semibold">
            Your TradingView alerts, placed as orders at your broker
          </h1>
          <p className="lead">
            {PRODUCT_NAME} turns each alert that TradingView, TrendSpider, Zapier or your own script posts to a webhook
            into exactly one order at your brokerage or exchange, the moment it arrives.
          </p>
          <div className="d-flex flex-wrap gap-2">
            <Link className="btn btn-primary btn-lg" to="/signup">
              Create an account
            </Link>
            <Link className="btn btn-outline-secondary btn-lg" to="/signin">
              Sign in
            </Link>
          </div>
          <p className="small text-secondary mt-2">Try it risk-free with Paper Trading: no brokerage account needed.</p>
          <p className="small text-secondary d-flex flex-wrap align-items-center gap-2 mb-0">
            Works with
            {PLATFORMS.map(([name, title]) => (
              <span key={name} className="d-inline-flex align-items-center gap-1 fw-semibold text-body">
                <BrandLogo name={name} title={title} size={1.5} />
                {title}
              </span>
            ))}
            and any script that can post JSON.
          </p>
        </div>
        <figure className="col-lg-5 mb-0" aria-label="An alert message and the order it becomes">
          <div data-bs-theme="dark" className="bg-body text-body rounded-3 p-3 font-monospace small">
            <div className="text-body-secondary mb-1">TradingView alert message</div>
            <pre className="mb-2">{ALERT}</pre>
            <div className="text-body-secondary mb-1">the answer</div>
            <pre className="text-success-emphasis mb-0 text-wrap">{ANSWER}</pre>
          </div>
        </figure>
      </section>

      <section className="mb-4" aria-labelledby="landing-how">
        <h2 id="landing-how" className="h4">
          How an alert becomes an order
        </h2>
        <ol className="row g-3 list-unstyled mb-0">
          {STEPS.map(([title, text], index) => (
            <li key={title} className="col-md-4">
              <div className="card h-100">
                <div className="card-body">
                  <div className="fw-semibold">
                    <span className="badge rounded-pill text-bg-primary me-2">{index + 1}</span>
                    {title}
                  </div>
                  <p className="small text-secondary mb-0 mt-1">{text}</p>
                </div>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section className="mb-4" aria-labelledby="landing-brokers">
        <h2 id="landing-brokers" className="h4">
          Supported brokers
        </h2>
        {brokers.length === 0 ? (
          <p className="text-secondary">The broker list could not be loaded; reload the page to try again.</p>
        ) : (
          <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0" aria-label="Supported brokers">
            {brokers.map((provider) => (
              <li
                key={provider.name}
                className="d-flex align-items-center gap-2 border rounded-pill bg-body py-1 ps-1 pe-3"
              >
                <BrandLogo name={provider.name} title={provider.title} size={1.5} />
                <span className="small fw-semibold">{provider.title}</span>
                {provider.status === 'beta' && <span className="badge text-bg-info">beta</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <p className="mb-0">
        Questions about webhooks, placeholders or credits? <Link to={FAQ_PATH}>Read the FAQ</Link>.
      </p>
    </div>
  );
}
