// Public types of the order language (SPEC §3 "Order (webhook body)", "Provider", "Enumerations").
// Shared by the hook, the server, the broker adapters and the web playground.

export const ORDER_CLASSES = [
  'bond',
  'cfd',
  'commodity',
  'crypto',
  'forex',
  'fund',
  'future',
  'index',
  'option',
  'stock',
  'warrant',
] as const;
export type OrderClass = (typeof ORDER_CLASSES)[number];

export const ORDER_TYPES = ['market', 'limit', 'stop', 'stop_limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const ORDER_ACTIONS = [
  'buy',
  'sell',
  'buy_to_cover',
  'sell_short',
  'buy_to_open',
  'buy_to_close',
  'sell_to_open',
  'sell_to_close',
  'close',
  'cancel',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

export const DURATIONS = [
  'atc',
  'ato',
  'aon',
  'clo',
  'cls',
  'day',
  'fak',
  'fok',
  'gfa',
  'gtc',
  'gtd',
  'gtt',
  'gtw',
  'gtm',
  'ioc',
  'opg',
  'dyp',
  'gcp',
] as const;
export type Duration = (typeof DURATIONS)[number];

/** fixed units; percent_of_equity (50 = 50 %); cash amount in the account currency; percent of the current position. */
export const QUANTITY_TYPES = ['fixed', 'percent_of_equity', 'cash', 'percent_of_position'] as const;
export type QuantityType = (typeof QUANTITY_TYPES)[number];

export const ORDER_GROUPS = ['combo', 'oco', 'oto', 'bracket'] as const;
export type OrderGroup = (typeof ORDER_GROUPS)[number];

/** One leg of a multi-leg order, after normalization. */
export interface OrderLeg {
  symbol: string;
  class: OrderClass;
  action: OrderAction;
  quantity: number;
  type?: OrderType;
  limit_price?: number;
}

/**
 * A normalized order: defaults filled in, expressions evaluated to numbers, symbol and class
 * resolved. Field names are the webhook body's (snake_case), so a test hook can echo it back.
 */
export interface Order {
  symbol: string;
  /** The exchange a prefixed symbol names ("NSE:INFY" → NSE); brokers that route by exchange read it. */
  exchange?: string;
  class: OrderClass;
  action: OrderAction;
  /** Absent only for close and cancel. */
  quantity?: number;
  quantity_type: QuantityType;
  type: OrderType;
  limit_price?: number;
  stop_price?: number;
  stop_price_distance?: number;
  stop_price_percent?: number;
  take_profit_price?: number;
  stop_loss_price?: number;
  stop_loss_price_distance?: number;
  stop_loss_price_percent?: number;
  duration: Duration;
  client_id?: string;
  parent_id?: string;
  group?: OrderGroup;
  legs?: OrderLeg[];
  /** Broker-specific pass-through values; only keys the provider's reference declares. */
  extra?: Record<string, string | number | boolean>;
}

/** The order parameters a provider reference can describe (SPEC §2 request-parameters table). */
export const ORDER_PARAMETERS = [
  'symbol',
  'class',
  'action',
  'quantity',
  'quantity_type',
  'limit_price',
  'stop_price',
  'stop_price_distance',
  'stop_price_percent',
  'take_profit_price',
  'stop_loss_price',
  'stop_loss_price_distance',
  'stop_loss_price_percent',
  'type',
  'duration',
  'client_id',
  'parent_id',
  'group',
  'legs',
  'extra',
] as const;
export type OrderParameter = (typeof ORDER_PARAMETERS)[number];

/** What a provider says of one order parameter (SPEC §3 Provider.reference). */
export interface ParameterReference {
  required?: boolean;
  /** Allowed values (for enumerations: class, type, action, duration, quantity_type, group). */
  values?: string[];
  /**
   * Only on action and type: the values a class takes where it takes fewer than `values` (Alpaca's
   * crypto: no sell_short). Orders of that class are refused any other up front, and the playground
   * offers only these.
   */
  byClass?: Partial<Record<OrderClass, string[]>>;
  /** Values outside `values` with the reason they are refused, added to the refusal (SPEC §3: say why). */
  unsupported?: Record<string, string>;
  examples?: Array<string | number>;
  /**
   * Only on quantity: the smallest amount the broker takes for its first example symbol (FOREX.com:
   * 1000 units, a micro lot). Example orders use it instead of 1, so they are not refused there.
   */
  minimum?: number;
  /**
   * Only on client_id: the ids the broker takes (a regular expression), where it sends the signal's
   * client_id on (MetaTrader: the order comment, up to 10 letters, digits or _). Alert messages
   * leave out a client_id that would not fit.
   */
  pattern?: string;
  comments?: string;
  /** Only on symbol: the class of each example, broker branch, account and a comment. */
  examplesClass?: OrderClass[];
  examplesBranch?: string[];
  examplesAccount?: string[];
  examplesComment?: string;
  /**
   * Only on symbol: the broker takes its trading server's own names, suffix and all (MetaTrader's
   * EURUSD.pro, XAUUSD.m). Elsewhere a pair with such a suffix is refused, naming the pair to send.
   */
  serverNames?: boolean;
}

/** A parameter absent from the reference is not supported by the provider. */
export type ProviderReference = Partial<Record<OrderParameter, ParameterReference>>;

/**
 * active: used for real; beta: built, not yet tried with a real account; unavailable: listed so
 * users learn why it cannot be connected (no public order API; `authentication.help` says why and
 * what to do instead), connecting refused; disabled: not listed at all.
 */
export type ProviderStatus = 'active' | 'beta' | 'unavailable' | 'disabled';

export type ProviderAuthentication =
  | { type: 'open'; help?: string; referrerBase?: string; credentials?: string[] }
  | {
      type: 'credentials';
      credentials: string[];
      help?: string;
      referrerBase?: string;
      /**
       * The credential that names the broker server the account is on (SPEC §3 Connector.branch);
       * the connect form suggests server names for it (`providerMetatraderBranches`).
       */
      branchSearch?: string;
    };

/** SPEC §3 Provider, as delivered (JSON) by the `providers` query. */
export interface Provider {
  name: string;
  title: string;
  status: ProviderStatus;
  authentication: ProviderAuthentication;
  reference: ProviderReference;
  /** SPEC §9 scale factor of the provider's logo in the grid. */
  scale?: number;
  /** Shutdown or other notice shown on the connector (SPEC §2). */
  notice?: string;
}

/** SPEC §3 Order response. */
export interface OrderResponse {
  id: string;
  status: 'accepted' | 'filled' | 'draft' | 'rejected' | 'canceled';
  status_description?: string;
  price?: number;
}

/** A bracket's exits: take profit and stop loss, by price, distance or percent. */
export const EXIT_FIELDS = [
  'take_profit_price',
  'stop_loss_price',
  'stop_loss_price_distance',
  'stop_loss_price_percent',
] as const;
