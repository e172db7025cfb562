// The REST API v1 (`/api/v1`, issue #16): the shapes of its answers and parameters. One zod schema
// each is the route's validator, its response serializer and its part of the OpenAPI document
// (apps/server/src/http/api). Names are camelCase; ids are opaque strings.
// Imported as `@router/shared/api` (server only: the web app never loads these).
import { z } from 'zod';

export const API_STATUSES = [
  'ValidationError',
  'ExecutionError',
  'AuthenticationError',
  'ForbiddenError',
  'Error',
] as const;

/** Every error answer: SPEC §8's status names and a message. */
export const apiErrorSchema = z
  .object({
    status: z.enum(API_STATUSES),
    message: z.string(),
  })
  .meta({ id: 'Error', examples: [{ status: 'ValidationError', message: 'No symbol found' }] });

const opaqueId = z.string().min(1).max(200);

/**
 * An account id as the server gives it (modules/api/accounts.ts accountId): a connection key (16
 * base62 characters) and the broker's account id, `kX9mP2qR7tV4wY8z\nPAPER-1`, in base64url.
 */
const EXAMPLE_ACCOUNT_ID = 'a1g5bVAycVI3dFY0d1k4egpQQVBFUi0x';

export const apiAccountSchema = z
  .object({
    id: opaqueId.meta({ description: 'Opaque account id: what /api/v1/accounts/{id}/… takes' }),
    providerName: z.string().meta({ description: 'The broker (e.g. paper, alpaca)' }),
    name: z.string(),
    isTest: z.boolean().meta({ description: "A paper or the broker's demo account" }),
  })
  .meta({
    id: 'Account',
    examples: [{ id: EXAMPLE_ACCOUNT_ID, providerName: 'paper', name: 'Paper USD', isTest: true }],
  });

export const API_ORDER_STATUSES = [
  'pending',
  'accepted',
  'filled',
  'canceled',
  'rejected',
  'failed',
  'unknown',
  'draft',
] as const;
export type ApiOrderStatus = (typeof API_ORDER_STATUSES)[number];

/** One leg of a multi-leg order as the API shows it. */
export const apiOrderLegSchema = z
  .object({
    symbol: z.string(),
    class: z.string(),
    action: z.string(),
    quantity: z.number(),
    type: z.string().nullable(),
    limitPrice: z.number().nullable(),
  })
  .meta({
    id: 'OrderLeg',
    examples: [
      {
        symbol: 'SPY 271217C00500000',
        class: 'option',
        action: 'buy_to_open',
        quantity: 1,
        type: null,
        limitPrice: null,
      },
    ],
  });

export const apiOrderSchema = z
  .object({
    id: opaqueId.meta({ description: 'Our order id (opaque): what /api/v1/orders/{orderId} takes' }),
    accountId: opaqueId,
    brokerOrderId: z.string().nullable().meta({ description: "The broker's order id, once known" }),
    status: z.enum(API_ORDER_STATUSES).meta({
      description:
        'pending: sent, the outcome not yet known; accepted, filled, canceled: as the broker says; rejected: the broker refused it; failed: it never reached the broker; unknown: the broker cannot tell, check the broker account; draft: a test order, nothing sent',
    }),
    statusDescription: z.string().nullable(),
    symbol: z.string(),
    class: z.string(),
    action: z.string(),
    quantity: z.number().nullable(),
    quantityType: z.string(),
    type: z.string(),
    limitPrice: z.number().nullable(),
    stopPrice: z.number().nullable(),
    duration: z.string(),
    group: z.string().nullable().meta({ description: "A multi-leg order's group (combo…); null for one leg" }),
    legs: z.array(apiOrderLegSchema).meta({
      description:
        'Every leg of a multi-leg order, the first included (symbol, class, action and quantity above are its first leg); empty for one leg',
    }),
    price: z.number().nullable().meta({ description: 'Fill or reference price, where the broker gives one' }),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'Order',
    examples: [
      {
        id: '0T2nXq7a4bC9dE1fG2hI',
        accountId: EXAMPLE_ACCOUNT_ID,
        brokerOrderId: 'PAPER-7f3a',
        status: 'filled',
        statusDescription: null,
        symbol: 'AAPL',
        class: 'stock',
        action: 'buy',
        quantity: 10,
        quantityType: 'fixed',
        type: 'market',
        limitPrice: null,
        stopPrice: null,
        duration: 'day',
        group: null,
        legs: [],
        price: 187.42,
        createdAt: '2026-11-25T18:00:00.000Z',
      },
    ],
  });
export type ApiOrder = z.infer<typeof apiOrderSchema>;

export const apiPositionSchema = z
  .object({
    symbol: z.string(),
    quantity: z.number(),
    averagePrice: z.number().nullable(),
    marketValue: z.number().nullable(),
  })
  .meta({ id: 'Position', examples: [{ symbol: 'AAPL', quantity: 10, averagePrice: 187.42, marketValue: 1880.1 }] });

export const apiBalancesSchema = z
  .object({
    currency: z.string().nullable(),
    cash: z.number().nullable(),
    equity: z.number().nullable(),
    buyingPower: z.number().nullable(),
  })
  .meta({
    id: 'Balances',
    examples: [{ currency: 'USD', cash: 98125.8, equity: 100006, buyingPower: 98125.8 }],
  });

/** A page of a list: `next` is the cursor of the following page, null on the last one. */
export function apiListSchema<T extends z.ZodType>(item: T, id: string) {
  const examples = z.globalRegistry.get(item)?.examples;
  const first = Array.isArray(examples) ? examples[0] : undefined;
  return z
    .object({
      data: z.array(item),
      next: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last one' }),
    })
    .meta({ id, examples: [{ data: first === undefined ? [] : [first], next: null }] });
}

/** A page's `limit` refused, however: not a number, not whole, out of range. */
export const PAGE_LIMIT_MESSAGE = 'must be a whole number from 1 to 100';

export const apiPageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: PAGE_LIMIT_MESSAGE })
    .int({ error: PAGE_LIMIT_MESSAGE })
    .min(1, { error: PAGE_LIMIT_MESSAGE })
    .max(100, { error: PAGE_LIMIT_MESSAGE })
    .default(50)
    .meta({ description: 'Items per page (1–100)' }),
  cursor: z.string().max(200).optional().meta({ description: "The previous page's `next`" }),
});

export const accountParamsSchema = z.object({
  id: opaqueId.meta({ description: 'An account id from /api/v1/accounts' }),
});
export const orderParamsSchema = z.object({ orderId: opaqueId.meta({ description: 'An order id' }) });

/** At most this long; one key names one order of one account, for its client, for IDEMPOTENCY_KEY_TTL_S. */
export const IDEMPOTENCY_KEY_MAX = 255;
/** How long an Idempotency-Key names its order (Stripe's 24 hours), however short the hook's dedupe window. */
export const IDEMPOTENCY_KEY_TTL_S = 24 * 60 * 60;
export const idempotencyHeadersSchema = z.object({
  'idempotency-key': z.string().min(1).max(IDEMPOTENCY_KEY_MAX).optional().meta({
    description:
      'Kept 24 hours, per account and per caller (the application, any of its access tokens, or the personal token): a retry with the same key and body answers the first order and places nothing; the key with another body is refused',
  }),
});

const numberOrExpression = z.union([z.number(), z.string()]);
const word = z.string();
/** client_id and parent_id: text or a number, at most 64 characters (the order language's MAX_ID_LENGTH). */
const orderId = z.union([z.string().max(64), z.number()]);

/**
 * The body of `POST /api/v1/accounts/{id}/orders`: the webhook's order language, for the document
 * only. The route reads the body as text and `@router/orders` validates it, exactly as for a hook,
 * so every field it takes is listed here and none is marked required: a legs order gives symbol and
 * action inside each leg, and is refused when it gives them on top.
 */
export const apiOrderBodySchema = z
  .object({
    symbol: word.optional().meta({ description: 'Required, except in a legs order (then inside each leg)' }),
    action: word.optional().meta({
      description:
        'buy, sell, buy_to_cover, sell_short, buy_to_open, …, close, cancel. Required, except in a legs order (then inside each leg)',
    }),
    quantity: numberOrExpression.optional().meta({ description: 'Required, except for close and cancel' }),
    quantity_type: word.optional().meta({ description: 'fixed, percent_of_equity, cash, percent_of_position' }),
    type: word.optional().meta({ description: 'market, limit, stop, stop_limit' }),
    limit_price: numberOrExpression.optional(),
    stop_price: numberOrExpression.optional(),
    stop_price_distance: numberOrExpression.optional(),
    stop_price_percent: numberOrExpression.optional(),
    take_profit_price: numberOrExpression.optional(),
    stop_loss_price: numberOrExpression.optional(),
    stop_loss_price_distance: numberOrExpression.optional(),
    stop_loss_price_percent: numberOrExpression.optional(),
    duration: word.optional().meta({ description: 'day, gtc, ioc, fok, …' }),
    class: word.optional().meta({ description: 'stock, crypto, option, future, forex, cfd, …' }),
    client_id: orderId.optional(),
    time: z.union([z.string(), z.number()]).optional().meta({
      description:
        "When the sender made the signal (ISO 8601, or seconds or ms since 1970), for a webhook's maxLagSeconds",
    }),
    timestamp: z.union([z.string(), z.number()]).optional().meta({ description: 'Another name for time' }),
    parent_id: orderId.optional(),
    group: word.optional().meta({ description: 'combo, oco, oto, bracket' }),
    legs: z.array(z.record(z.string(), z.unknown())).max(8).optional().meta({
      description: 'Up to 8 legs of {symbol, class, action, quantity, type, limit_price}; or symbol[2], action[2], …',
    }),
    extra: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  })
  .meta({
    id: 'OrderRequest',
    description: 'The webhook order language (see the documentation screen): unknown fields are refused',
    examples: [{ symbol: 'AAPL', action: 'buy', quantity: 10, type: 'market' }],
  });

export type ApiAccount = z.infer<typeof apiAccountSchema>;
export type ApiPosition = z.infer<typeof apiPositionSchema>;
export type ApiBalances = z.infer<typeof apiBalancesSchema>;
