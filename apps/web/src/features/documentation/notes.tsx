import {
  currentExample,
  DURATION_MEANINGS,
  exampleContractMonth,
  type Provider,
  providerDefaultDuration,
} from '@router/orders';
import { HashLink } from '../../components/hash-link.tsx';
import { ExternalLink } from './external-link.tsx';
import { MATH_SYNTAX_URL, OCC_SYMBOLOGY_URL, TRADINGVIEW_VARIABLES_URL, TRENDSPIDER_VARIABLES_URL } from './links.ts';

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * SPEC §2 notes: futures and option symbols, GTC, expressions, and the platform variables FAQ.
 * The symbol examples are dated as of `now` (a contract month and an expiry still ahead), so that
 * one a user copies names a contract that trades and the 1-digit year reads as the year said.
 */
export function Notes({ now = Date.now(), provider }: { now?: number; provider?: Provider }) {
  const current = (example: string) => String(currentExample(example, now));
  const month = exampleContractMonth(now);
  // What the hook gives an order naming no duration at this broker (gtc where it takes it, else its first).
  const limit = providerDefaultDuration(provider, 'limit');
  const market = providerDefaultDuration(provider, 'market');
  return (
    <section className="mb-4" aria-labelledby="notes-title">
      <h2 id="notes-title" className="h5">
        Notes
      </h2>
      <dl className="mb-0">
        <dt>Futures symbols</dt>
        <dd>
          Root, month code and year: the year may have 1, 2 or 4 digits, so <code>{current('ESZ4')}</code>,{' '}
          <code>{current('ESZ24')}</code> and <code>{current('ESZ2024')}</code> are the same{' '}
          {MONTH_NAMES[month.month - 1]} {month.year} contract; a contract whose month is over trades nowhere, and an
          order opening it is refused. A continuous contract is the root followed by <code>N!</code>: <code>ES1!</code>{' '}
          is the front month, <code>ES2!</code> the next. Without the <code>!</code>, <code>ES1</code> or{' '}
          <code>NQ1</code> is refused: it reads as a stock ticker or a contract years away (a ticker such as ASX's{' '}
          <code>AX1</code> goes with <code>"class": "stock"</code>). Index CFD names that look like a contract month,
          such as <code>HK50</code> or <code>VN30</code>, are read as tickers, not as May 2050 or July 2030 contracts.
          Month codes: F G H J K M N Q U V X Z (January to December).
        </dd>
        <dt>Option symbols</dt>
        <dd>
          The <ExternalLink href={OCC_SYMBOLOGY_URL}>OCC standard</ExternalLink>: root, expiry date YYMMDD, C or P, and
          the strike times 1000 in 8 digits, as in{' '}
          <code className="code-spaces">{current('AAPL  271217C00200000')}</code>. The padding spaces may be an
          underscore or left out (<code>{current('AAPL_271217C00200000')}</code>,{' '}
          <code>{current('AAPL271217C00200000')}</code>
          ), and the strike's zeros are optional: <code>{current('AAPL271217C200')}</code>.
        </dd>
        <dt>Limit and stop orders are {limit.toUpperCase()}</dt>
        <dd>
          Limit, stop and stop limit orders are <code>{limit}</code> ({DURATION_MEANINGS[limit]}) unless the order gives
          another <code>duration</code>; market orders{' '}
          {market === 'day' ? (
            'last the day'
          ) : (
            <>
              are <code>{market}</code> ({DURATION_MEANINGS[market]})
            </>
          )}
          .
        </dd>
        <dt>Expressions</dt>
        <dd>
          Any number may be written as a math expression, e.g. <code>"limit_price": "{'{{close}}'} * 0.99"</code>.
          Operators <code>+ - * /</code> (also <code>× ÷</code>), <code>^</code> or <code>**</code> for powers, and
          parentheses; functions <code>abs</code>, <code>round(x, decimals)</code>, <code>floor</code>,{' '}
          <code>ceil</code>, <code>min</code>, <code>max</code>, <code>sqrt</code> and <code>pow</code>. The syntax is
          the common one of <ExternalLink href={MATH_SYNTAX_URL}>math.js expressions</ExternalLink>; the placeholders
          are filled in by <ExternalLink href={TRADINGVIEW_VARIABLES_URL}>TradingView</ExternalLink> and{' '}
          <ExternalLink href={TRENDSPIDER_VARIABLES_URL}>TrendSpider</ExternalLink> before the alert is sent.
        </dd>
        <dt>FAQ</dt>
        <dd className="mb-0">
          <ul className="mb-0 ps-3">
            <li>
              How do I use TrendSpider variables such as <code>%last_price%</code>? See the{' '}
              <HashLink hash="trendspider-variables">TrendSpider example</HashLink> and{' '}
              <ExternalLink href={TRENDSPIDER_VARIABLES_URL}>TrendSpider's webhook variables</ExternalLink>.
            </li>
            <li>
              How do I use TradingView variables such as <code>{'{{close}}'}</code>? See the{' '}
              <HashLink hash="tradingview-variables">TradingView example</HashLink> and{' '}
              <ExternalLink href={TRADINGVIEW_VARIABLES_URL}>TradingView's alert variables</ExternalLink>.
            </li>
          </ul>
        </dd>
      </dl>
    </section>
  );
}
