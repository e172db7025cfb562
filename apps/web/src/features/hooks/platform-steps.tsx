import type { AlertPlatform } from '@router/orders';
import type { ReactNode } from 'react';
import { ExternalLink } from '../documentation/external-link.tsx';
import {
  TRADINGVIEW_VARIABLES_URL,
  TRADINGVIEW_WEBHOOKS_URL,
  TRENDSPIDER_VARIABLES_URL,
  ZAPIER_WEBHOOKS_URL,
} from '../documentation/links.ts';

/** Each platform's own steps, in its own words (menu names as the platform shows them). */
const STEPS: Record<AlertPlatform, readonly ReactNode[]> = {
  tradingview: [
    <>
      Webhooks need a paid TradingView plan and two-factor authentication on your TradingView account (
      <ExternalLink href={TRADINGVIEW_WEBHOOKS_URL}>TradingView: about webhooks</ExternalLink>).
    </>,
    <>
      Open the chart of the symbol to trade and choose <strong>Create alert</strong> (Alt + A). For a strategy, set the
      condition to the strategy itself.
    </>,
    <>
      In the <strong>Message</strong> box, replace the text with one of the messages below: the strategy alert for a
      strategy, the plain alert for anything else.
    </>,
    <>
      Under <strong>Notifications</strong>, tick <strong>Webhook URL</strong> and paste the webhook URL.
    </>,
    <>
      <strong>Create</strong> the alert. Each time it fires TradingView posts the message, and the order shows in the
      dashboard's Last actions.
    </>,
  ],
  trendspider: [
    <>Create an alert (or a strategy bot) on the symbol to trade.</>,
    <>
      In the alert's notifications, turn on <strong>Webhook</strong> and paste the webhook URL.
    </>,
    <>
      Paste the message below as the webhook's body (
      <ExternalLink href={TRENDSPIDER_VARIABLES_URL}>TrendSpider: webhooks and their variables</ExternalLink>).
    </>,
    <>Save the alert. When it fires, the order shows in the dashboard's Last actions.</>,
  ],
  zapier: [
    <>Create a Zap whose trigger should place the order: a new spreadsheet row, an email, a form, an RSS item…</>,
    <>
      Add the action <strong>Webhooks by Zapier</strong> with the event <strong>Custom Request</strong> (
      <ExternalLink href={ZAPIER_WEBHOOKS_URL}>Zapier: Webhooks by Zapier</ExternalLink>).
    </>,
    <>
      Method <strong>POST</strong>, URL: the webhook URL, Data: the message below with the trigger's fields inserted,
      Headers: <code>Content-Type</code> <code>application/json</code>.
    </>,
    <>
      Zapier's <strong>Test step</strong> sends a real request: build the Zap on a test webhook, then switch the URL to
      a live one and publish.
    </>,
  ],
};

export function PlatformSteps({ platform }: { platform: AlertPlatform }) {
  return (
    <ol className="small ps-3">
      {STEPS[platform].map((step, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list, never reordered
        <li key={index} className="mb-1">
          {step}
        </li>
      ))}
    </ol>
  );
}

export const VARIABLES_URL: Partial<Record<AlertPlatform, string>> = {
  tradingview: TRADINGVIEW_VARIABLES_URL,
  trendspider: TRENDSPIDER_VARIABLES_URL,
};
