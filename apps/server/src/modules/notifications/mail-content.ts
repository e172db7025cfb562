// Notification mails: one per event (summary, details table, link), a digest when a kind of
// event floods, and the notice that a failing webhook was disabled.
import { NOTIFICATION_EVENT_LABELS, type NotificationEventType } from '@router/shared';
import type { Mail } from '../mail/mailer.ts';
import { escapeHtml, PRODUCT } from '../mail/templates.ts';
import { DIGEST_LISTED } from './delivery-rules.ts';
import { describeEvent, type EventText, formatTime } from './event-text.ts';

export interface MailContext {
  publicUrl: string;
  /** A provider's title ('Alpaca'), its name when unknown. */
  title: (providerName: string) => string;
}

export interface MailEvent {
  type: string;
  at: Date;
  data: Record<string, unknown>;
}

function render(
  to: string,
  subject: string,
  intro: string,
  body: { text: string[]; html: string },
  link: string,
  linkLabel: string,
): Mail {
  const text = [intro, '', ...body.text, '', `${linkLabel}: ${link}`, '', `— ${PRODUCT}`].join('\n');
  const html = `<p>${escapeHtml(intro)}</p>${body.html}<p><a href="${escapeHtml(link)}">${escapeHtml(linkLabel)}</a></p><p>— ${PRODUCT}</p>`;
  return { to, subject: `${subject} · ${PRODUCT}`, text, html, link };
}

function detailsBody(details: EventText['details']) {
  const rows = details.map(
    ([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
  );
  return {
    text: details.map(([label, value]) => `${label}: ${value}`),
    html: details.length ? `<table cellpadding="4">${rows.join('')}</table>` : '',
  };
}

export function eventMail(ctx: MailContext, to: string, event: MailEvent): Mail {
  const described = describeEvent(event.type, event.data, ctx.title);
  const details = detailsBody([...described.details, ['Time', formatTime(event.at.getTime())]]);
  return render(
    to,
    described.summary,
    described.intro,
    details,
    `${ctx.publicUrl}${described.path}`,
    described.linkLabel,
  );
}

/** One mail for many events of one kind: a line each, oldest first. */
export function digestMail(ctx: MailContext, to: string, type: string, events: readonly MailEvent[]): Mail {
  const label = NOTIFICATION_EVENT_LABELS[type as NotificationEventType] ?? type;
  const listed = [...events]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .slice(0, DIGEST_LISTED)
    .map((event) => {
      const { summary, reason } = describeEvent(event.type, event.data, ctx.title);
      return `${formatTime(event.at.getTime())} — ${summary}${reason ? ` (${reason})` : ''}`;
    });
  const more = events.length - listed.length;
  const lines = more > 0 ? [...listed, `…and ${more} more`] : listed;
  const path = type.startsWith('connector.') ? '/me/connector' : type.startsWith('credits.') ? '/me/account' : '/me';
  return render(
    to,
    `${events.length} × ${label}`,
    `${events.length} "${label}" notifications came within a short time, so here they are in one mail.`,
    { text: lines, html: `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` },
    `${ctx.publicUrl}${path}`,
    'See your activity',
  );
}

export function disabledMail(
  ctx: MailContext,
  to: string,
  setting: { url?: string; providerName: string; accountId: string; reason: string },
): Mail {
  const broker = ctx.title(setting.providerName);
  return render(
    to,
    'A notification webhook was disabled',
    `Deliveries to your webhook for ${broker} account ${setting.accountId} failed for 3 days, so it was disabled. Fix the receiver, then save the setting again to enable it.`,
    detailsBody([
      ['Webhook URL', setting.url ?? ''],
      ['Reason', setting.reason],
    ]),
    `${ctx.publicUrl}/me/connector`,
    'Notification settings',
  );
}
