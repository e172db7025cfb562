// The fake's stand-ins for Stripe's hosted pages, plain HTML so a browser journey can use them
// offline: Checkout (/c/pay/:id, a Pay button), the billing portal (/p/session/:id) and an
// invoice PDF (/invoice/:id/pdf).
import type { StripeObject } from './fixtures.ts';

const html = (value: unknown) => String(value ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head><body><main>${body}</main></body></html>`;

const money = (cents: unknown, currency: unknown) =>
  `${(Number(cents) / 100).toFixed(2)} ${html(String(currency).toUpperCase())}`;

export function checkoutPage(session: StripeObject, lines: StripeObject[], message?: string): string {
  const items = lines.map((l) => `<li>${html(l.description)} × ${html(l.quantity)}</li>`).join('');
  const open = session.status === 'open';
  return page(
    'Stripe Checkout (test fake)',
    `<h1>Pay ${money(session.amount_total, session.currency)}</h1><ul>${items}</ul>
    ${message ? `<p role="alert">${html(message)}</p>` : ''}
    ${
      open
        ? `<form method="post"><button type="submit" name="card" value="4242424242424242">Pay</button>
           <button type="submit" name="card" value="4000000000000002">Pay with a declined card</button></form>
           <p><a href="${html(session.cancel_url)}">Back</a></p>`
        : '<p>This Checkout Session is no longer open.</p>'
    }`,
  );
}

export function portalPage(portal: StripeObject, subscriptions: StripeObject[]): string {
  const rows = subscriptions
    .map((s) => {
      const item = (s.items as { data: Array<{ price: StripeObject; current_period_end: number }> }).data[0];
      const action =
        s.status === 'canceled'
          ? 'Cancelled'
          : s.cancel_at_period_end
            ? `Cancels on ${new Date(Number(s.cancel_at) * 1000).toISOString().slice(0, 10)}`
            : `<form method="post"><input type="hidden" name="subscription" value="${html(s.id)}">
               <button type="submit" name="action" value="cancel">Cancel plan</button></form>`;
      return `<li>${html(item?.price.nickname)} (${html(s.status)}) ${action}</li>`;
    })
    .join('');
  return page(
    'Billing portal (test fake)',
    `<h1>Your plans</h1><ul>${rows || '<li>No plans</li>'}</ul><p><a href="${html(portal.return_url)}">Return</a></p>`,
  );
}

/** The smallest valid PDF with one line of text. */
export function invoicePdf(invoice: StripeObject): Buffer {
  const text = `Invoice ${String(invoice.number)} ${money(invoice.amount_paid, invoice.currency)}`.replace(
    /[()\\]/g,
    '',
  );
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
