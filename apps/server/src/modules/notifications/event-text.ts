// An event in words, for mails: a one-line summary (the subject, and a digest's line), an intro,
// the details as label/value rows, and the screen to open. Data comes from events.ts' shapes,
// read defensively (a stored event outlives code changes).
import { NOTIFICATION_EVENT_LABELS } from '@router/shared';

export interface EventText {
  summary: string;
  intro: string;
  details: Array<[string, string]>;
  /** Why it happened, when the summary does not say (a rejection's or refusal's message): a digest's line ends with it. */
  reason?: string;
  /** Path under PUBLIC_URL. */
  path: string;
  linkLabel: string;
}

type Data = Record<string, unknown>;
type Title = (providerName: string) => string;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;
const object = (value: unknown): Data => (value && typeof value === 'object' ? (value as Data) : {});

/** "2025-03-14 09:30 UTC"; a number no date of years 0–9999 can hold (a stored event's) as it was given. */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  const iso = Number.isNaN(date.getTime()) ? '' : date.toISOString();
  return /^\d{4}-/.test(iso) ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : String(ms);
}

function rows(pairs: Array<[string, unknown]>): Array<[string, string]> {
  return pairs.flatMap(([label, value]) => {
    const shown = text(value);
    return shown === undefined ? [] : [[label, shown] as [string, string]];
  });
}

/** order.placed of an order the broker could neither confirm nor deny (reconciliation gave up). */
const UNKNOWN_VERB = 'Order outcome unknown';

const ORDER_VERBS: Record<string, string> = {
  'order.placed': 'Order placed',
  'order.filled': 'Order filled',
  'order.rejected': 'Order rejected',
};

/** What the quantity counts (quantity_type): a bare number is shares, contracts, lots or coins. */
const QUANTITY_UNITS: Record<string, (quantity: string) => string> = {
  percent_of_equity: (q) => `${q}% of equity`,
  percent_of_position: (q) => `${q}% of position`,
  cash: (q) => `${q} in cash`,
};

function quantityText(order: Data): string | undefined {
  const quantity = text(order.quantity);
  const unit = QUANTITY_UNITS[text(order.quantity_type) ?? ''];
  return quantity !== undefined && unit ? unit(quantity) : quantity;
}

const percent = (value: unknown): string | undefined => {
  const shown = text(value);
  return shown === undefined ? undefined : `${shown}%`;
};

/** A multi-leg order's legs: "BUY_TO_OPEN 1 SPY…C500, SELL_TO_OPEN 1 SPY…C510". */
function legsText(legs: unknown): string | undefined {
  if (!Array.isArray(legs)) return undefined;
  const shown = legs
    .map((leg) => {
      const l = object(leg);
      return [text(l.action)?.toUpperCase(), text(l.quantity), text(l.symbol)].filter(Boolean).join(' ');
    })
    .filter(Boolean);
  return shown.length > 0 ? shown.join(', ') : undefined;
}

/** The sender's name: a REST API order's caller (its application or token), else its webhook's. */
const senderName = (hook: Data): string | undefined => text(hook.api === true ? hook.via : hook.name);

/**
 * Who sent an order: its webhook, or the REST API (its own hook, named for the activity log) and
 * the application or token that called it.
 */
function sent(hook: Data): string {
  const name = senderName(hook);
  if (hook.api === true) return name ? `${name} sent an order through the REST API` : 'The REST API sent an order';
  return `${name ? `Webhook "${name}"` : 'A webhook'} sent an order`;
}

function orderText(type: string, data: Data, title: Title): EventText {
  const order = object(data.order);
  const broker = title(text(data.providerName) ?? '');
  const quantity = quantityText(order);
  const what = [text(order.action)?.toUpperCase(), quantity, text(order.symbol)].filter(Boolean).join(' ');
  const hook = object(data.hook);
  const filledAt = type === 'order.filled' && text(data.price) ? ` at ${text(data.price)}` : '';
  const signalId = text(data.signalId) ?? '';
  return {
    summary: `${data.status === 'unknown' ? UNKNOWN_VERB : (ORDER_VERBS[type] ?? 'Order')}: ${what || 'order'}${filledAt} on ${broker}`,
    intro: `${sent(hook)} to ${broker} account ${text(data.accountId) ?? ''}.`,
    details: rows([
      ['Symbol', order.symbol],
      ['Action', order.action],
      ['Quantity', quantity],
      ['Order type', order.type],
      ['Limit price', order.limit_price],
      ['Stop price', order.stop_price],
      ['Stop distance', order.stop_price_distance ?? percent(order.stop_price_percent)],
      ['Take profit', order.take_profit_price],
      ['Stop loss', order.stop_loss_price],
      ['Stop loss distance', order.stop_loss_price_distance ?? percent(order.stop_loss_price_percent)],
      ['Duration', order.duration],
      ['Legs', legsText(order.legs)],
      ['Status', data.status],
      ['Average price', data.price],
      ['Message', data.message],
      ['Broker order id', data.brokerOrderId],
      ['Signal id', data.signalId],
    ]),
    reason: text(data.message),
    path: `/me?signal=${encodeURIComponent(signalId)}`,
    linkLabel: 'See it in your activity',
  };
}

const REFUSALS: Record<string, string> = {
  invalid: 'the signal was not a valid order',
  no_credits: 'no signals were left on your account',
  hook_inactive: 'the webhook is deactivated',
  connector_inactive: 'the broker connection is deactivated',
  refused: 'it was refused',
};

/** Where a signal was refused: on a webhook, or on the REST API and by which caller. */
function refusedOn(hook: Data): string {
  const name = senderName(hook);
  if (hook.api === true) return ` on the REST API${name ? ` (${name})` : ''}`;
  return name ? ` on webhook "${name}"` : '';
}

function refusedText(data: Data, title: Title): EventText {
  const hook = object(data.hook);
  const signalId = text(data.signalId);
  return {
    summary: `Signal refused${refusedOn(hook)}`,
    intro: `A signal became no order: ${REFUSALS[text(data.reason) ?? ''] ?? 'it was refused'}.`,
    details: rows([
      ['Message', data.message],
      ['Broker', text(data.providerName) ? title(text(data.providerName) ?? '') : undefined],
      ['Account', data.accountId],
      ['Signal id', signalId],
    ]),
    reason: text(data.message),
    // A refused signal was stored as none: its entry is among its webhook's calls (the REST
    // API's hook is never listed).
    path: signalId
      ? `/me?signal=${encodeURIComponent(signalId)}`
      : text(hook.key) && hook.api !== true
        ? `/me?hook=${encodeURIComponent(text(hook.key) ?? '')}`
        : '/me',
    linkLabel: 'See your activity',
  };
}

function connectorText(type: string, data: Data, title: Title): EventText {
  const providerName = text(data.providerName);
  const broker = title(providerName ?? '');
  // The broker's own page (SPEC's /me/connector/{providerName}) opens its connect dialog: the
  // reconnection the link offers, as the connector card's Reconnect button does.
  const path = providerName ? `/me/connector/${encodeURIComponent(providerName)}` : '/me/connector';
  const accounts = Array.isArray(data.accountIds) ? data.accountIds.map(String).join(', ') : undefined;
  const expiresAt = typeof data.expiresAt === 'number' ? formatTime(data.expiresAt) : undefined;
  if (type === 'connector.expiring') {
    return {
      summary: `Your ${broker} connection expires ${expiresAt ? `on ${expiresAt}` : 'soon'}`,
      intro: `Reconnect ${broker} before then, so your webhooks keep placing orders.`,
      details: rows([
        ['Broker', broker],
        ['Accounts', accounts],
        ['Expires', expiresAt],
      ]),
      path,
      linkLabel: 'Reconnect',
    };
  }
  return {
    summary: `Your ${broker} connection was deactivated`,
    intro: `${broker} refused the connection, so its webhooks place no orders until you reconnect.`,
    details: rows([
      ['Broker', broker],
      ['Accounts', accounts],
      ['Reason', data.reason],
    ]),
    path,
    linkLabel: 'Reconnect',
  };
}

function creditsText(type: string, data: Data): EventText {
  const exhausted = type === 'credits.exhausted';
  return {
    summary: exhausted
      ? 'You have no signals left'
      : `You have ${text(data.balance) ?? 'few'} ${data.balance === 1 ? 'signal' : 'signals'} left`,
    intro: exhausted
      ? 'Live webhooks refuse signals until you add credits.'
      : 'Add credits before they run out, so live webhooks keep placing orders.',
    details: rows([
      ['Signals left', data.balance],
      // No low mark to tell once none are left, or when nothing granted sets one (a plan ended).
      ['Low at', exhausted || !data.threshold ? undefined : data.threshold],
    ]),
    path: '/me/account',
    linkLabel: 'Add credits',
  };
}

export function describeEvent(type: string, data: Data, title: Title): EventText {
  if (type.startsWith('order.')) return orderText(type, data, title);
  if (type === 'signal.refused') return refusedText(data, title);
  if (type.startsWith('connector.')) return connectorText(type, data, title);
  if (type.startsWith('credits.')) return creditsText(type, data);
  const broker = text(data.providerName) ? title(text(data.providerName) ?? '') : 'your broker';
  return {
    summary: 'Test notification',
    intro: `Notifications of ${broker} account ${text(data.accountId) ?? ''} reach this address.`,
    details: rows([['Event', NOTIFICATION_EVENT_LABELS['notification.test']]]),
    path: '/me/connector',
    linkLabel: 'Notification settings',
  };
}
