import { TERMS_MINIMUM_AGE, type TermsSection } from './terms-section.ts';

// Sections 1–9: the agreement, who may use the services and how.
export const USING_SECTIONS: readonly TermsSection[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of these terms',
    paragraphs: [
      'These terms of service ("Terms") govern your access to and use of our website, web application, webhook endpoints, application programming interfaces and related services (together, the "Services"). "We", "us" and "our" mean the provider of the Services; "you" and "Customer" mean the person or entity using them.',
      'By creating an account, connecting a brokerage account, sending a signal to a webhook or otherwise using the Services, you agree to these Terms. If you do not agree, do not use the Services.',
    ],
  },
  {
    id: 'eligibility',
    title: 'Eligibility',
    paragraphs: [
      `You must be at least ${TERMS_MINIMUM_AGE} years old, and of legal age to form a binding contract where you live, to use the Services. By using the Services you represent that you meet this requirement.`,
      'If you use the Services on behalf of a company or other organization, you represent that you have the authority to bind it to these Terms, and "you" includes that organization.',
    ],
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    paragraphs: [
      'We may change these Terms from time to time. The date of the last modification is shown at the top of this page. When a change is material we will tell you in advance as described in the Notice section.',
      'Your continued use of the Services after a change takes effect means that you accept the changed Terms. If you do not accept them, you must stop using the Services.',
    ],
  },
  {
    id: 'services',
    title: 'The services',
    paragraphs: [
      'The Services turn trading signals, standardized JSON messages that you or a platform of your choice send to a webhook URL, into orders at the brokerage or exchange accounts that you connect, and show you the results.',
      'We are not a broker, dealer, exchange, investment adviser or custodian. We do not hold your funds or securities, and we do not decide what, when or how much you trade. Every order is the result of a signal you configured and sent.',
    ],
  },
  {
    id: 'account-security',
    title: 'Your account and its security',
    paragraphs: [
      'You must give accurate information when you register and keep it up to date. You are responsible for everything that happens under your account, including every signal sent to your webhook URLs and every action taken with your API tokens.',
      'You must protect your account with a secure password: at least 10 characters long, containing upper case letters, lower case letters, at least one digit and at least one punctuation character. We recommend that you also enable the second factor in your settings.',
      'Treat your webhook URLs and API tokens as secrets. Anyone who knows a webhook URL can send signals to it. If you believe that your account, a webhook URL or a token has been compromised, delete or replace it at once and tell us.',
    ],
  },
  {
    id: 'brokerage-connections',
    title: 'Brokerage connections',
    paragraphs: [
      "To place orders you authorize us to connect to your brokerage or exchange accounts, either through the broker's own authorization page or with credentials you provide. You confirm that you are allowed to grant this access and that doing so does not breach your agreement with the broker.",
      "Your relationship with each broker is governed by that broker's own terms. Brokers may reject, delay, modify or cancel orders, change their interfaces or revoke access at any time; we are not responsible for their acts or omissions.",
      'You may disconnect a broker at any time. We store connection tokens and credentials encrypted and use them only to provide the Services.',
    ],
  },
  {
    id: 'signals-and-orders',
    title: 'Signals, orders and trading risk',
    paragraphs: [
      'Trading in securities, options, futures, foreign exchange and crypto assets involves substantial risk, including the loss of more than your initial investment. Automated trading adds risks of its own: a faulty alert, a repeated signal or a delayed message can result in orders you did not intend.',
      'You are solely responsible for the signals you send, their content and their consequences, and for monitoring your brokerage accounts. Test your webhooks with test hooks, the paper broker and the playground before trading with real money.',
      'Nothing in the Services is investment, legal or tax advice, and no example, template or default value is a recommendation to buy or sell anything.',
    ],
  },
  {
    id: 'credits-and-payments',
    title: 'Credits, plans and payments',
    paragraphs: [
      'Signals are metered in credits. One credit is used for each signal that reaches a broker; signals sent to test hooks and manual trading through the Services are free. Your balance, plan and period end are shown on the Account & Billing page.',
      'Paid plans renew automatically at the end of each period until you cancel them; cancellation takes effect at the end of the current period. Payments are processed by our payment provider; we do not store your card number.',
      'Prices are shown in the currency they are charged in (for a price offered in several, the one of your billing history, else that of your browser’s region) and exclude taxes unless stated otherwise. Except where the law requires otherwise, payments are non-refundable and unused credits have no cash value.',
    ],
  },
  {
    id: 'promotions',
    title: 'Promotions and referrals',
    paragraphs: [
      'Credits granted through a promotion, a coupon, a reward or a referral program are a courtesy, not a purchase. Unless stated otherwise when they are granted, promotional credits expire 12 months after they are granted and cannot be exchanged for money.',
      'We may change or end any promotion at any time, and may withhold or remove promotional credits obtained through abuse, such as multiple or fake accounts.',
    ],
  },
];
