// What the Rithmic adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/rithmic/WIRE.md: R | Protocol over WebSocket, a login per plant
// (ORDER_PLANT here), user_tag echoed on every answer and notification (our id), AUTO order
// tagging, a trade route per exchange, brackets as tick offsets from the entry, no lookup by
// user_tag (open orders and the day's history are searched), no duplicate refusal.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const RITHMIC_TITLE = 'Rithmic';
/** The community's test gateway and system (WIRE.md §1); production gateways come after conformance. */
export const RITHMIC_TEST_GATEWAY = 'wss://rituz00100.rithmic.com:443';

export const rithmicDescriptor: BrokerDescriptor = {
  name: 'rithmic',
  title: RITHMIC_TITLE,
  status: 'beta',
  scale: 1.1,
  baseUrl: RITHMIC_TEST_GATEWAY,
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: false,
    getHoldings: false,
    // Username and password per session: nothing expires, nothing to renew.
    refresh: false,
    // No request takes a user_tag: the open orders and the order history of the window's dates
    // are replayed and searched for it (listRecentOrders, match by id) or for the basket_id.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    // user_tag is echoed, never checked for repeats (WIRE.md §3).
    idempotencyKey: false,
    brackets: true,
    multiLeg: false,
  },
  // WIRE.md documents no length for user_tag: ours (20 characters) is sent as is; anything longer
  // or stranger is replaced by a hash of it (ccxt/client-id.ts), the same one every time.
  clientOrderId: { maxLength: 36, pattern: '^[A-Za-z0-9_-]+$' },
  // rp_code texts (a code then a text; the codes' meanings are in Rithmic's non-public reference
  // guide) and notification texts; what is not named here keeps the kind of the step that failed.
  // "13 permission denied" is no entry: at login it is wrong credentials (the login's refusals are
  // all AuthenticationError, plant.ts), on an order the login is good and only that order refused.
  exceptions: {
    exact: {},
    broad: {
      'invalid login': 'AuthenticationError',
      'login failed': 'AuthenticationError',
      password: 'AuthenticationError',
      insufficient: 'InsufficientFunds',
      margin: 'InsufficientFunds',
      'buying power': 'InsufficientFunds',
      'too many': 'RateLimited',
      'rate limit': 'RateLimited',
      'not found': 'OrderNotFound',
      'no such order': 'OrderNotFound',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['user', 'password', 'systemName'],
    help:
      'Sign in with the Rithmic user and password your broker or prop firm gave you, and the system name it ' +
      'names (e.g. "Rithmic Test", "Rithmic Paper Trading" or your firm\'s system). Orders go to the order ' +
      'plant as automated (AUTO) orders through the trade route Rithmic assigns for each exchange. Beta: ' +
      'Rithmic opens production gateways to an application only after its developer agreement and a ' +
      'conformance test, which this server has not passed yet; until then it connects to the gateway the ' +
      "operator sets in RITHMIC_BASE_URL (Rithmic's test gateway by default).",
  },
  reference: {
    symbol: {
      required: true,
      examples: ['ESH2027', 'ES1!', 'CME:NQH27'],
      examplesClass: ['future', 'future', 'future'],
      examplesComment:
        'Futures by contract month: ESH2027, ESH27 and ESH7 are all sent as ESH7; ES1! is the front month Rithmic ' +
        'names (ES2! and later are not resolved: name the month). The exchange is known for CME Group roots (ES, ' +
        'NQ, RTY, YM, ZB, ZN, CL, GC, 6E, … and their micros); otherwise prefix the exchange as Rithmic names it ' +
        "(CME:SR3H2027); TradingView's CME_MINI, CBOT_MINI, NYMEX_MINI and COMEX_MINI are sent as CME, CBOT, " +
        'NYMEX and COMEX.',
    },
    class: { values: ['future'], comments: 'Futures, through the trade route Rithmic gives for the exchange.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'buy_to_cover', 'sell_short'],
      comments: 'Futures have no short sale of their own: sell_short is a sell and buy_to_cover a buy.',
    },
    quantity: { required: true, examples: [1, 2], comments: 'Whole contracts.' },
    quantity_type: { values: ['fixed'] },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: {
      examples: [6050.25],
      comments:
        "Required for limit and stop_limit orders. On the root's tick where it is known (a buy's rounded down, a sell's up).",
    },
    stop_price: { examples: [6040], comments: 'The trigger of stop (stop market) and stop_limit orders.' },
    take_profit_price: {
      examples: [6070.25],
      comments:
        'A bracket (RequestBracketOrder): Rithmic places the exits as tick offsets from the entry, so the entry ' +
        'is a limit, stop or stop_limit order and both exits are whole ticks from its price (ES, NQ 0.25; CL 0.01; ' +
        'GC 0.1; …, for the roots whose tick is known). With stop_loss_price the exits cancel each other.',
    },
    stop_loss_price: { examples: [6030.25], comments: 'The stop exit of the bracket. Either exit may be alone.' },
    duration: {
      values: ['day', 'gtc', 'ioc', 'fok'],
      comments: 'day, good till canceled, immediate or cancel, fill or kill.',
    },
    group: { values: ['bracket'], comments: 'bracket: an entry with take profit and/or stop loss.' },
    extra: {
      values: ['target_ticks', 'stop_ticks'],
      examples: ['{"target_ticks": 16, "stop_ticks": 8}'],
      comments:
        "A bracket in Rithmic's own terms: the exits as whole ticks from the fill, for any entry (market too). " +
        'Instead of take_profit_price and stop_loss_price, not with them.',
    },
  },
};
