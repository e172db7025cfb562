// What Kraken (spot, through ccxt) supports, declared once: docs screen, playground and the
// order validator read it. Only what the adapter really sends is listed.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const KRAKEN_TITLE = 'Kraken';

export const krakenDescriptor: BrokerDescriptor & { baseUrl: string } = {
  name: 'kraken',
  title: KRAKEN_TITLE,
  status: 'active',
  scale: 0.7,
  baseUrl: 'https://api.kraken.com',
  // cl_ord_id is refused again only while the first order is open: no idempotency key.
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: 'emulated',
    getHoldings: true,
    lastPrice: true,
    refresh: false,
    findOrderByClientId: true,
    findOrderByBrokerId: true,
    listRecentOrders: false,
    idempotencyKey: false,
    brackets: false,
    multiLeg: false,
  },
  clientOrderId: { maxLength: 36, pattern: '^[\\x20-\\x7e]{1,18}$|^[0-9a-fA-F-]{32,36}$' },
  exceptions: {
    broad: {
      'unknown order': 'OrderNotFound',
      duplicate: 'DuplicateOrder',
      'invalid key': 'AuthenticationError',
      'invalid signature': 'AuthenticationError',
      // EAPI:Invalid nonce: the nonce was not above the last one Kraken saw for the key (two requests
      // crossing, another program on the same key). Nothing was processed and the keys are good: a
      // passing failure, as ccxt classes it (InvalidNonce, a NetworkError), not refused keys.
      'invalid nonce': 'BrokerUnavailable',
      // EGeneral:Permission denied: this call is not allowed to the key or the account (a key without
      // "Create & modify orders", a pair the account may not trade). A refusal of that call: the keys
      // themselves are refused with EAPI:Invalid key/signature (the API's error responses).
      'permission denied': 'InvalidOrder',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['apiKey', 'apiSecret'],
    help:
      'Create an API key under Settings → API in Kraken Pro with the permissions "Query funds", ' +
      '"Query open orders & trades", "Query closed orders & trades", "Create & modify orders" and ' +
      '"Cancel & close orders". Paste the API key and its private key (base64).',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['BTCUSD', 'XBT/USD', 'ETH-USD', 'XXBTZUSD'],
      examplesClass: ['crypto', 'crypto', 'crypto', 'crypto'],
      examplesComment:
        "Spot pairs in signal notation (BTCUSD, BTC/USD, BTC-USD, XBTUSD) or Kraken's own pair name " +
        '(XBTUSD, XXBTZUSD); matched against the pairs Kraken lists.',
    },
    class: { values: ['crypto'], comments: 'Kraken spot. Margin and Kraken Futures are not supported.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'close', 'cancel'],
      comments:
        "close cancels the pair's open orders and sells the free balance of its base currency at market; " +
        "cancel cancels the pair's open orders.",
    },
    quantity: { required: true, examples: [0.01, 1.5], comments: 'In the base currency (BTC for BTCUSD).' },
    quantity_type: {
      values: ['fixed', 'cash'],
      comments: 'cash: an amount in the quote currency (USD for BTCUSD), market buys only (Kraken flag viqc).',
    },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'stop is Kraken stop-loss (market when triggered); stop_limit is stop-loss-limit.',
    },
    limit_price: { examples: [65000], comments: 'Required for limit and stop_limit orders.' },
    stop_price: { examples: [60000], comments: 'The trigger price of stop and stop_limit orders (last trade).' },
    duration: {
      values: ['gtc', 'ioc'],
      comments: 'gtc (default) or ioc; Kraken has no fok or day orders for spot.',
    },
    client_id: {
      examples: ['6d1b345e-2821-40e2-ad83-4ecb18a06876'],
      comments:
        "Sent as Kraken's cl_ord_id (a UUID, or our id hashed into one). Kraken refuses a cl_ord_id already " +
        'used by an open order; the router then returns that order.',
    },
  },
};
