// The protocol fake's request schemas, from MetaApi's MetatraderTrade model and the account
// creation request (broker-specs/metatrader/WIRE.md §3, §4). Fastify checks bodies against them;
// what a schema cannot say (prices against the market, the 26-character budget) is checked in
// fake-terminal.ts.

const ACTION_TYPES = [
  'ORDER_TYPE_BUY',
  'ORDER_TYPE_SELL',
  'ORDER_TYPE_BUY_LIMIT',
  'ORDER_TYPE_SELL_LIMIT',
  'ORDER_TYPE_BUY_STOP',
  'ORDER_TYPE_SELL_STOP',
  'ORDER_TYPE_BUY_STOP_LIMIT',
  'ORDER_TYPE_SELL_STOP_LIMIT',
  'ORDER_MODIFY',
  'ORDER_CANCEL',
  'POSITION_MODIFY',
  'POSITION_PARTIAL',
  'POSITION_CLOSE_ID',
  'POSITIONS_CLOSE_SYMBOL',
  'POSITION_CLOSE_BY',
];

const UNITS = [
  'ABSOLUTE_PRICE',
  'RELATIVE_PRICE',
  'RELATIVE_POINTS',
  'RELATIVE_PIPS',
  'RELATIVE_CURRENCY',
  'RELATIVE_BALANCE_PERCENTAGE',
];

export const TRADE_SCHEMA = {
  type: 'object',
  required: ['actionType'],
  additionalProperties: false,
  properties: {
    actionType: { type: 'string', enum: ACTION_TYPES },
    symbol: { type: 'string', minLength: 1 },
    volume: { type: 'number', exclusiveMinimum: 0 },
    openPrice: { type: 'number', exclusiveMinimum: 0 },
    stopLimitPrice: { type: 'number', exclusiveMinimum: 0 },
    stopLoss: { type: 'number' },
    takeProfit: { type: 'number' },
    stopLossUnits: { type: 'string', enum: UNITS },
    takeProfitUnits: { type: 'string', enum: UNITS },
    orderId: { type: 'string', minLength: 1 },
    positionId: { type: 'string', minLength: 1 },
    closeByPositionId: { type: 'string', minLength: 1 },
    comment: { type: 'string' },
    clientId: { type: 'string' },
    magic: { type: 'integer', minimum: 0 },
    slippage: { type: 'integer', minimum: 0 },
    fillingModes: {
      type: 'array',
      items: { type: 'string', enum: ['ORDER_FILLING_FOK', 'ORDER_FILLING_IOC', 'ORDER_FILLING_RETURN'] },
    },
    expiration: {
      type: 'object',
      required: ['type'],
      additionalProperties: false,
      properties: {
        type: {
          type: 'string',
          enum: ['ORDER_TIME_GTC', 'ORDER_TIME_DAY', 'ORDER_TIME_SPECIFIED', 'ORDER_TIME_SPECIFIED_DAY'],
        },
        time: { type: 'string', format: 'date-time' },
      },
    },
  },
};

export const NEW_ACCOUNT_SCHEMA = {
  type: 'object',
  required: ['login', 'password', 'name', 'server', 'platform', 'magic'],
  properties: {
    login: { type: 'string', pattern: '^[0-9]+$' },
    password: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
    server: { type: 'string', minLength: 1 },
    platform: { type: 'string', enum: ['mt4', 'mt5'] },
    magic: { type: 'integer', minimum: 0 },
    type: { type: 'string', enum: ['cloud-g1', 'cloud-g2'] },
    reliability: { type: 'string', enum: ['regular', 'high'] },
    resourceSlots: { type: 'integer', minimum: 1 },
    region: { type: 'string' },
  },
};
