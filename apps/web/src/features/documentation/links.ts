// External documentation the notes and examples link to.
export const TRADINGVIEW_VARIABLES_URL =
  'https://www.tradingview.com/support/solutions/43000531021-how-to-use-a-variable-value-in-alert/';
export const TRADINGVIEW_WEBHOOKS_URL = 'https://www.tradingview.com/support/solutions/43000529348-about-webhooks/';
export const TRENDSPIDER_VARIABLES_URL = 'https://help.trendspider.com/kb/alerts/webhooks';
export const MATH_SYNTAX_URL = 'https://mathjs.org/docs/expressions/syntax.html';
export const OCC_SYMBOLOGY_URL = 'https://en.wikipedia.org/wiki/Option_symbol#The_OCC_Option_Symbol';
export const ZAPIER_WEBHOOKS_URL = 'https://zapier.com/apps/webhook/integrations';
