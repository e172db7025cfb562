// The protocol fake's request schemas, from tastytrade's order reference (broker-specs/tastytrade/
// orders.swagger2.json, as patched in broker-specs/validating/tastytrade.json: decimals as number
// or decimal string, 1 to 4 legs, `order-type`, `time-in-force` and `legs` required). Fastify
// checks bodies against them; what a schema cannot say is checked in fake-book.ts.

const decimal = { anyOf: [{ type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' }, { type: 'number' }] };

const leg = {
  type: 'object',
  required: ['action', 'instrument-type', 'symbol'],
  properties: {
    action: {
      type: 'string',
      enum: ['Allocate', 'Buy', 'Buy to Close', 'Buy to Open', 'Sell', 'Sell to Close', 'Sell to Open'],
    },
    'instrument-type': {
      type: 'string',
      enum: [
        'Cryptocurrency',
        'Equity',
        'Equity Option',
        'Event Contract',
        'Fixed Income Security',
        'Future',
        'Future Option',
        'Liquidity Pool',
      ],
    },
    quantity: decimal,
    symbol: { type: 'string' },
  },
};

const effect = { type: 'string', enum: ['Credit', 'Debit'] };

export const ORDER_SCHEMA = {
  type: 'object',
  required: ['order-type', 'time-in-force', 'legs'],
  properties: {
    'gtc-date': { type: 'string', format: 'date' },
    'order-type': {
      type: 'string',
      enum: ['Limit', 'Market', 'Marketable Limit', 'Notional Market', 'Stop', 'Stop Limit'],
    },
    'time-in-force': {
      type: 'string',
      enum: ['Day', 'Ext', 'Ext Overnight', 'GTC', 'GTC Ext', 'GTC Ext Overnight', 'GTD', 'IOC'],
    },
    'stop-trigger': decimal,
    price: decimal,
    'price-effect': effect,
    value: decimal,
    'value-effect': effect,
    'automated-source': { type: 'boolean' },
    'external-identifier': { type: 'string' },
    source: { type: 'string' },
    legs: { type: 'array', items: leg, minItems: 1, maxItems: 4 },
  },
} as const;

export const COMPLEX_ORDER_SCHEMA = {
  type: 'object',
  required: ['orders', 'type'],
  properties: {
    type: { type: 'string', enum: ['BLAST', 'OCO', 'OTO', 'OTOCO', 'PAIRS'] },
    'trigger-order': ORDER_SCHEMA,
    orders: { type: 'array', items: ORDER_SCHEMA, minItems: 1 },
    source: { type: 'string' },
  },
} as const;

export const TOKEN_SCHEMA = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    code: { type: 'string' },
    redirect_uri: { type: 'string' },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
    refresh_token: { type: 'string' },
  },
} as const;
