import type { Step } from 'react-joyride';
import { PRODUCT_NAME } from '../../lib/links.ts';

/** The sidebar items the popovers point at (components/shell/nav-items.ts sets data-tour). */
export const TOUR_TARGETS = {
  dashboard: '[data-tour="nav-dashboard"]',
  connector: '[data-tour="nav-connector"]',
  account: '[data-tour="nav-account"]',
  documentation: '[data-tour="nav-documentation"]',
} as const;

const isVisible = (selector: string): boolean => {
  const element = document.querySelector<HTMLElement>(selector);
  if (!element) return false;
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && box.right > 0 && box.left < window.innerWidth;
};

/**
 * A popover beside the menu item; where the menu is a closed drawer (phones) the same words
 * come as a centred modal.
 */
function menuStep(selector: string, title: string, content: string): Step {
  return isVisible(selector)
    ? { target: selector, title, content, placement: 'right' }
    : { target: 'body', title, content, placement: 'center' };
}

/** SPEC §2: welcome modal, four menu popovers, then the connector modal. */
export function tourSteps(): Step[] {
  return [
    {
      target: 'body',
      placement: 'center',
      title: `Welcome to ${PRODUCT_NAME}`,
      content:
        'Alerts from TradingView, TrendSpider, Zapier or your own scripts become orders at your broker. Here is a one-minute look around.',
    },
    menuStep(
      TOUR_TARGETS.dashboard,
      'Dashboard',
      'Your signals at a glance: connected brokers, signals left, hook calls over time and the latest actions.',
    ),
    menuStep(
      TOUR_TARGETS.connector,
      'Brokers & Webhooks',
      'Connect a broker and create webhook URLs. Every signal posted to a webhook becomes an order.',
    ),
    menuStep(
      TOUR_TARGETS.account,
      'Account & Billing',
      'Each signal uses one credit. See what is left, buy more or subscribe to a plan.',
    ),
    menuStep(
      TOUR_TARGETS.documentation,
      'Documentation',
      "Your broker's order fields, ready-made examples and a playground to test orders before going live.",
    ),
    {
      target: 'body',
      placement: 'center',
      title: 'Connect your first broker',
      content:
        'Start with the paper broker to try everything without risk, or connect your brokerage account. Then create a webhook and send a signal.',
    },
  ];
}
