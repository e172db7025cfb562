import type { ReactNode } from 'react';

// The privacy policy's sections. Facts about what the software stores and sends are the code's:
// keep them true when a feature changes what it keeps (DESIGN.md "Security baseline").
export interface PrivacySection {
  id: string;
  title: string;
  body: ReactNode;
}

export const PRIVACY_SECTIONS: readonly PrivacySection[] = [
  {
    id: 'what-we-keep',
    title: 'What is stored',
    body: (
      <ul>
        <li>Your account: email address, first and last name, and your password as a one-way hash (argon2id).</li>
        <li>
          Your broker connections: the accounts each one reports, and the credentials or access tokens needed to place
          orders, encrypted (AES-256-GCM). They are never shown again, never written to logs and never returned by the
          API.
        </li>
        <li>
          Your webhooks and the signals sent to them: the message, the order made of it, the broker's answer, the time
          and the sending address; and an activity log of sign-ins and changes, with the address they came from.
        </li>
        <li>If billing is enabled: your credit balance and payments. Card details go to the payment processor.</li>
        <li>Your second factor's secret, API tokens (as hashes) and notification settings.</li>
      </ul>
    ),
  },
  {
    id: 'why',
    title: 'Why',
    body: (
      <p>
        To place the orders your alerts ask for, show you what happened, keep your account secure (rate limits,
        deactivating webhooks that receive invalid requests), bill you where billing is enabled, and answer you when you
        ask for help. Nothing is sold, and nothing is used for advertising.
      </p>
    ),
  },
  {
    id: 'who-receives',
    title: 'Who else receives it',
    body: (
      <ul>
        <li>Your broker: the orders your signals make and the credentials to sign in there.</li>
        <li>
          The services this installation is set up with, each only for its purpose: the mail server (confirmation and
          reset emails, notifications), the payment processor (payments), Google or Apple (if you sign in with them) and
          the notification webhooks you configure yourself.
        </li>
        <li>Anyone the law requires it to be given to.</li>
      </ul>
    ),
  },
  {
    id: 'browser',
    title: 'What your browser keeps',
    body: (
      <p>
        Your session token (local storage, key <code>token</code>) until you log out or it expires, and whether you have
        seen the welcome tour. There are no tracking or advertising cookies and no analytics scripts; Google's or
        Apple's sign-in script loads on the sign-in screens only where that sign-in is enabled.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long',
    body: (
      <p>
        As long as your account exists. Deleting a broker connection deletes its credentials, webhooks and notification
        settings at once; sessions end when you log out or after their lifetime. Logs and backups the operator keeps
        follow the operator's own schedule.
      </p>
    ),
  },
  {
    id: 'your-rights',
    title: 'Your rights',
    body: (
      <p>
        You may ask to see, correct, export or delete your personal data, and you may object to its use. Ask through the
        support address below; deleting the account deletes its connections, webhooks and signals.
      </p>
    ),
  },
];
