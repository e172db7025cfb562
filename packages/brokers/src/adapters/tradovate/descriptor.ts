// What the Tradovate adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/tradovate/WIRE.md: futures by contract name, OSO brackets
// (/order/placeoso), OCO pairs (/order/placeoco), clOrdId stored on the order's command (no
// lookup by it, no duplicate refusal), rejections as HTTP 200 bodies.
import type { BrokerDescriptor } from '../../core/broker.ts';
import type { BrokerEnvironments } from '../../core/environments.ts';

export const TRADOVATE_TITLE = 'Tradovate';

/** Live and simulation: one sign-in, accounts listed on each origin. */
export const TRADOVATE_ENVIRONMENTS: BrokerEnvironments = {
  live: 'https://live.tradovateapi.com/v1',
  demo: 'https://demo.tradovateapi.com/v1',
};

export const tradovateDescriptor: BrokerDescriptor = {
  name: 'tradovate',
  title: TRADOVATE_TITLE,
  status: 'beta',
  scale: 1.3,
  baseUrl: TRADOVATE_ENVIRONMENTS.live,
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: true,
    getHoldings: true,
    refresh: true,
    // clOrdId is kept on the order's New command; Tradovate has no query by it, so the command
    // list of the session is searched (listRecentOrders, match by id).
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    idempotencyKey: false,
    brackets: true,
    multiLeg: true,
  },
  // Tradovate documents no rule for clOrdId: ours (20 characters of [0-9A-Za-z]) is sent as is;
  // anything longer or stranger is replaced by a hash (ccxt/client-id.ts).
  clientOrderId: { maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
  // failureReason values (exact) and words of failureText / errorText (broad). A failureReason
  // answers a request whose token was accepted (a refused token is a 401, WIRE.md §8): its
  // Unauthorized refuses that order or command, not the connection, and so does AccountClosed,
  // which names the order's account (a closed user is refused at sign-in, by userStatus).
  exceptions: {
    exact: {
      AccountClosed: 'InvalidOrder',
      ExecutionProviderUnavailable: 'BrokerUnavailable',
      ExecutionProviderNotConfigured: 'BrokerUnavailable',
      RiskCheckTimeout: 'BrokerUnavailable',
      AnotherCommandPending: 'BrokerUnavailable',
    },
    broad: {
      insufficient: 'InsufficientFunds',
      'not enough margin': 'InsufficientFunds',
      'margin requirement': 'InsufficientFunds',
      'incorrect username or password': 'AuthenticationError',
      'access is denied': 'AuthenticationError',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['username', 'password', 'cid', 'secret'],
    help:
      'Sign in with your Tradovate username and password, and the API key (cid, a number, and its secret) ' +
      'created in Tradovate under Application Settings → API Access (an API subscription is required). ' +
      'Demo (simulation) accounts and, when your user has live access, live accounts are connected together. ' +
      'Orders are sent as automated orders (CME tag 1028).',
    referrerBase: 'https://trader.tradovate.com',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['ES1!', 'ESZ2026', 'MNQH27'],
      examplesClass: ['future', 'future', 'future'],
      examplesComment:
        'Futures by contract: ES1! is the front month (ES2! the next), rolled as Tradovate lists the ' +
        'maturities; ESZ2026, ESZ26 and ESZ6 all mean the December 2026 contract, sent as ESZ6.',
    },
    class: { values: ['future'], comments: 'CME Group futures (and micros) as Tradovate lists them.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'buy_to_cover', 'sell_short', 'close', 'cancel'],
      comments:
        'Futures have no short sale of their own: sell_short is a sell and buy_to_cover a buy. close flattens the ' +
        "contract's position (Tradovate liquidates it, canceling its working orders), or with a quantity sends " +
        'an opposite market order for that part, cutting working exits larger than what is left to it (canceling ' +
        "them when none is left); cancel cancels the contract's working orders.",
    },
    quantity: { required: true, examples: [1, 2], comments: 'Whole contracts.' },
    quantity_type: {
      values: ['fixed', 'percent_of_position'],
      comments: 'percent_of_position only with close (rounded down to whole contracts, at least one).',
    },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: { examples: [5400.25], comments: 'Required for limit and stop_limit orders.' },
    stop_price: { examples: [5390], comments: 'Required for stop and stop_limit orders.' },
    take_profit_price: {
      examples: [5420],
      comments:
        'A bracket (order/placeoso): a limit exit, GTC, working once the entry fills; with stop_loss_price the ' +
        'two exits are one-cancels-other.',
    },
    stop_loss_price: { examples: [5380], comments: 'The stop exit of the bracket (GTC). Either exit may be alone.' },
    duration: {
      values: ['day', 'gtc', 'ioc', 'fok'],
      comments: 'day, good till canceled, immediate or cancel, fill or kill.',
    },
    group: {
      values: ['bracket', 'oco'],
      comments:
        'bracket: an entry with take profit and/or stop loss. oco: two limit orders on one contract and quantity ' +
        '(legs), the fill of one cancels the other (order/placeoco).',
    },
    legs: {
      examples: [
        '[{"symbol":"ES1!","action":"buy","quantity":1,"limit_price":5300},' +
          '{"symbol":"ES1!","action":"sell","quantity":1,"limit_price":5500}]',
      ],
      comments: 'Only for group oco: exactly two limit legs on the same contract with the same quantity.',
    },
  },
};
