// The broker contract, v2 (DESIGN.md "The broker contract", docs/ADDING-A-BROKER.md). Every
// adapter implements Broker; what a screen, the validator or reconciliation needs to know about
// a provider lives in its descriptor: `reference` per order parameter, `has` per capability.
import type { Order, OrderClass, OrderResponse, Provider } from '@router/orders';
import type { BrokerCapabilities, ClientOrderIdRule } from './capabilities.ts';
import type { ExceptionTable } from './exceptions.ts';
import type { CancelTarget, ListedOrder, RecentOrdersQuery } from './lookup.ts';

/** A provider's declarative description; `Provider` plus what only the server needs. */
export interface BrokerDescriptor extends Provider {
  /** Default API base URL; `<NAME>_BASE_URL` overrides it (tests point it at a fake). */
  baseUrl?: string;
  has: BrokerCapabilities;
  /** What the broker accepts as a client order id; null when it keeps none. */
  clientOrderId: ClientOrderIdRule | null;
  /** The broker's error messages → our error kinds (core/exceptions.ts). */
  exceptions?: ExceptionTable;
  /**
   * OAuth sign-ins whose answer cannot carry our state (OAuth 1.0a: E*TRADE sends its verifier to
   * the callback registered with the app, or shows it to be pasted). The verifier works only with
   * the request token sealed in the pending attempt (`pending.requestToken`), so its callback may
   * come without `state`: the attempt is the one whose request token the callback echoes
   * (`oauth_token`, passed as the state), else the user's latest. Every other OAuth broker's
   * callback must bring the state.
   */
  callbackWithoutState?: true;
  /**
   * A fixed quantity is a number of lots whose size differs per symbol and server (MetaTrader: 1
   * lot of EURUSD is 100,000 EUR), not of units: a webhook's maxNotional cannot value it.
   */
  quantityInLots?: true;
}

/** One account at the broker (SPEC §3 Connector.accounts). */
export interface BrokerAccount {
  id: string;
  name: string;
  dataTitle?: string;
  dataType?: string;
  dataCurrency?: string;
  demo: boolean;
}

/** Secrets we keep (encrypted) for a connection: credentials as entered, or OAuth tokens. */
export type BrokerSecrets = Record<string, string>;

export interface BrokerSession {
  secrets: BrokerSecrets;
  accounts: BrokerAccount[];
  /** When the session's longest-lived credential expires (ms since epoch), if it does. */
  expiresAt?: number;
  /** When the access token must be refreshed (ms since epoch), if it must. */
  refreshAt?: number;
  /** The broker server the connection is on (SPEC §3 Connector.branch), e.g. a MetaTrader server name. */
  branch?: string;
}

/** A broker server a connection can be made on (the connect form's branch suggestions). */
export interface BrokerBranch {
  /** The server's name, as the connect form takes it ("ICMarketsSC-Demo"). */
  name: string;
  /** The company running it ("Raw Trading Ltd"). */
  broker: string;
  /** The platform or API version it serves, where the broker has several ("mt4", "mt5"). */
  platform?: string;
}

/** What a broker needs from the outside world: configuration and, for OAuth, the redirect. */
export interface BrokerContext {
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  /** `${PUBLIC_URL}/callback/<name>` for OAuth providers. */
  redirectUrl?: string;
  /** Injected clock (tests move it forward). */
  now?: () => number;
  /** Aborts the call (the hook's deadline). */
  signal?: AbortSignal;
  /**
   * The server's refresh of the session this call runs on: renewed under the connection's lock
   * and stored before it is used. An access token found stale in a call is renewed through it,
   * so a rotated refresh token (Saxo) never lives only in this process's memory.
   */
  refreshSession?: () => Promise<BrokerSession>;
  /**
   * The session stored for this connection now, read again, not renewed: a token the broker
   * refused may have been replaced meanwhile by a refresh made elsewhere (another server instance).
   * Used through resendWithStoredToken (oauth-tokens.ts).
   */
  storedSession?: () => Promise<BrokerSession>;
}

export interface ConnectInput {
  /** Credential values keyed by the descriptor's credential names (or `code` for OAuth). */
  credentials: Record<string, string>;
  /** `AuthorizationRequest.pending` of the authorization the user returns from (OAuth 1.0a). */
  pending?: BrokerSecrets;
}

export interface PlaceOrderInput {
  accountId: string;
  order: Order;
  /** Our signal id; sent to the broker as its client order id wherever it accepts one. */
  clientOrderId: string;
}

export interface Holding {
  symbol: string;
  quantity: number;
  averagePrice?: number;
  marketValue?: number;
}

export interface Holdings {
  cash?: number;
  equity?: number;
  /** What a new position may cost now, where the broker says. */
  buyingPower?: number;
  currency?: string;
  positions: Holding[];
}

export interface AuthorizationRequest {
  /** URL of the broker's consent page; `state` binds it to the user. */
  requestUrl: string;
  /**
   * What connecting needs back when the user returns, e.g. OAuth 1.0a's request token and its
   * secret: the server keeps it sealed with the pending connection and hands it to `connect`.
   */
  pending?: BrokerSecrets;
}

/** Every method past placeOrder exists exactly when `descriptor.has` declares it (core/descriptor.test.ts). */
export interface Broker {
  readonly descriptor: BrokerDescriptor;
  /** OAuth providers only: the broker's authorization URL for this state. */
  authorizationUrl?(ctx: BrokerContext, state: string): AuthorizationRequest;
  /**
   * OAuth providers that must ask the broker before sending the user there (OAuth 1.0a's
   * request token), in place of `authorizationUrl`; `pending` comes back to `connect`.
   */
  startAuthorization?(ctx: BrokerContext, state: string): Promise<AuthorizationRequest>;
  connect(ctx: BrokerContext, input: ConnectInput): Promise<BrokerSession>;
  /** Renews tokens; returns the new session. Providers without expiring tokens omit it. */
  refresh?(ctx: BrokerContext, session: BrokerSession): Promise<BrokerSession>;
  /**
   * Loads ahead, with no user's credentials, what every connection's first call would otherwise
   * load on its path (a ccxt venue's market list). The server calls it after a start for brokers
   * that active connections use (warm-up.ts); `ctx.signal` ends it when the server stops.
   */
  warm?(ctx: BrokerContext): Promise<void>;
  /**
   * The broker's own checks of an order, without a session or any call (a test hook's "check
   * without placing"): throws the BrokerError placeOrder would throw for it before sending
   * anything, through the same mapping code. Pure. Where the mapping needs the broker
   * (instruments, quotes), it runs the mapping's first step, every refusal that needs no
   * looked-up data; what only the broker can tell is left to placing.
   */
  checkOrder?(input: PlaceOrderInput): void;
  placeOrder(ctx: BrokerContext, session: BrokerSession, input: PlaceOrderInput): Promise<OrderResponse>;
  /** Validates and prices the order without placing it, where the broker can. */
  previewOrder?(ctx: BrokerContext, session: BrokerSession, input: PlaceOrderInput): Promise<OrderResponse>;
  /** Cancels one order, by the broker's id or by ours (core/find-order.ts `orderIdToCancel`). */
  cancelOrder?(ctx: BrokerContext, session: BrokerSession, target: CancelTarget): Promise<void>;
  closePosition?(ctx: BrokerContext, session: BrokerSession, accountId: string, symbol: string): Promise<OrderResponse>;
  getHoldings?(ctx: BrokerContext, session: BrokerSession, accountId: string): Promise<Holdings>;
  /**
   * The symbol's last traded (or marked) price in the account's currency; null when the broker
   * quotes none. `exchange`: the order's own (`Order.exchange`, from an `EXCHANGE:` prefix), for
   * brokers whose instruments are named by exchange.
   */
  lastPrice?(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    symbol: string,
    cls: OrderClass,
    exchange?: string,
  ): Promise<number | null>;
  /**
   * Stops what connecting started at the broker's side and keeps costing (MetaApi's terminal
   * for an account the site added): called once the connection is deleted. Nothing else
   * changes at the broker; orders and positions stay as they are.
   */
  disconnect?(ctx: BrokerContext, session: BrokerSession): Promise<void>;
  /**
   * Ends what the broker keeps between calls (Rithmic's logged-in sessions, cTrader's sockets):
   * called when the server stops. A later call opens them again.
   */
  close?(): Promise<void> | void;
  /**
   * Servers matching `search`, for the connect form's branch field: present exactly when
   * `descriptor.authentication.branchSearch` names that field (core/descriptor.test.ts).
   */
  searchBranches?(ctx: BrokerContext, search: string): Promise<BrokerBranch[]>;

  // Lookup primitives: core/find-order.ts calls the strongest one `has` declares. Never call
  // them directly from the server: `findOrder` knows which answer proves what.
  /** The order carrying our client order id; null when the broker has none. */
  findByClientId?(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    clientOrderId: string,
  ): Promise<OrderResponse | null>;
  /** The order with this broker id; null when the broker has none. */
  findByBrokerId?(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    brokerOrderId: string,
  ): Promise<OrderResponse | null>;
  /**
   * Every order entered in the window that carries our id or the order's terms; null when the
   * broker no longer lists that window (too long ago), so nothing can be proved.
   */
  listRecentOrders?(
    ctx: BrokerContext,
    session: BrokerSession,
    query: RecentOrdersQuery,
  ): Promise<ListedOrder[] | null>;
}

/** A broker whose optional methods `K` are present (an adapter's factory states what it implements). */
export type BrokerWith<K extends keyof Broker> = Broker & Required<Pick<Broker, K>>;
