import type { TermsSection } from './terms-section.ts';

// Sections 10–17: conduct, data, ownership and what we do and do not promise.
export const RIGHTS_SECTIONS: readonly TermsSection[] = [
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    paragraphs: [
      "You agree not to: use the Services for market manipulation, wash trading, spoofing or any other unlawful trading practice; interfere with or overload the Services or the brokers connected to them; probe, scan or test the vulnerability of the Services without our written permission; access accounts or data that are not yours; resell or sublicense the Services without our written consent; or use the Services in breach of any law or of a broker's terms.",
      'We may rate-limit, suspend or deactivate webhooks that receive repeated invalid requests or traffic that threatens the stability of the Services.',
    ],
  },
  {
    id: 'api-and-applications',
    title: 'API access and third-party applications',
    paragraphs: [
      'You may create API tokens and authorize third-party applications to act for you within the permissions you grant, such as reading the list of your connected accounts, submitting orders on request or obtaining holdings on request. You are responsible for the applications you authorize and may revoke them at any time in your settings.',
      'Developers who register applications must keep their client secret confidential, use the access they are granted only as the user authorized, and comply with these Terms.',
    ],
  },
  {
    id: 'privacy',
    title: 'Privacy',
    paragraphs: [
      'We collect the information you give us (such as your name, email address and broker connections), the signals and orders that pass through the Services, and technical data about your use of the Services (such as IP addresses, device and browser information and log entries).',
      'We use this information to provide, secure and improve the Services, to bill you, to communicate with you about your account and, where you agreed, to send you product news. We do not sell your personal information.',
      'We share information only with service providers that help us run the Services (hosting, payments, email, customer support and analytics), with the brokers you connect, when the law requires it, or in connection with a transfer of our business. Each of them may use it only for that purpose.',
      'We keep your information for as long as your account is open and afterwards as long as needed to meet legal obligations and resolve disputes. You may ask us to access, correct, export or delete your personal information by contacting support.',
    ],
  },
  {
    id: 'intellectual-property',
    title: 'Intellectual property',
    paragraphs: [
      'The Services, including their software, design, text, documentation and trademarks, belong to us or our licensors and are protected by law. Subject to these Terms, we grant you a limited, personal, non-exclusive, non-transferable and revocable license to use the Services for your own trading.',
      'You may not copy, modify, distribute, reverse engineer or create derivative works of the Services, except as the law expressly permits.',
    ],
  },
  {
    id: 'your-content',
    title: 'Your content and feedback',
    paragraphs: [
      'You keep all rights in the signals, names and other content you submit. You grant us the rights needed to process that content to provide the Services to you.',
      'If you send us suggestions or feedback, we may use them without restriction or compensation to you.',
    ],
  },
  {
    id: 'third-party-services',
    title: 'Third-party services',
    paragraphs: [
      'The Services work with charting platforms, brokers, exchanges, payment processors and other services that we do not control. Their availability, accuracy and terms are their own, and links to them are not endorsements.',
    ],
  },
  {
    id: 'availability',
    title: 'Availability and changes to the services',
    paragraphs: [
      'We work to keep the Services available and fast, but they may be interrupted for maintenance, upgrades, failures of networks, brokers or providers, or events beyond our control. Signals sent during an interruption may be rejected, delayed or not delivered.',
      'We may add, change or remove features, supported brokers and order types at any time. When we remove a feature you pay for, we will tell you in advance where reasonably possible.',
    ],
  },
  {
    id: 'disclaimer',
    title: 'Disclaimer of warranties',
    paragraphs: [
      'THE SERVICES ARE PROVIDED "AS IS" AND "AS AVAILABLE", WITHOUT WARRANTIES OF ANY KIND, WHETHER EXPRESS, IMPLIED OR STATUTORY, INCLUDING WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE, TITLE AND NON-INFRINGEMENT.',
      'We do not warrant that the Services will be uninterrupted, timely, secure or error-free, that orders will be executed at any particular price or time, or that any trading strategy will be profitable.',
    ],
  },
];
