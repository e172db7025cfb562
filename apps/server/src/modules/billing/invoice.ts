// `accountInvoice` (SPEC §3 Invoice): the PDF link of one of the caller's invoices, asked of
// Stripe each time (its links expire). Only invoices recorded for the caller's payments.
import { findPaymentByInvoice } from '../../db/repositories/payments.repository.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import type { Services } from '../../services.ts';
import { isMissing, type StripeClient, stripeClient, stripeFailure } from './stripe-client.ts';

export async function getInvoice(
  services: Services,
  viewer: Viewer,
  id: string,
): Promise<{ id: string; invoicePdf: string }> {
  const stripe = await stripeClient(services);
  const notFound = new AppError('NOT_FOUND', 'Invoice not found');
  if (!(await findPaymentByInvoice(services.db, viewer.userId, id))) throw notFound;
  let pdf: string | null | undefined;
  try {
    pdf = (await stripe.invoices.retrieve(id)).invoice_pdf;
  } catch (error) {
    if (isMissing(error)) throw notFound;
    throw stripeFailure(services, error, 'reading an invoice');
  }
  if (!pdf) throw new AppError('EXECUTION', 'The invoice PDF is not ready yet. Please try again in a minute.');
  return { id, invoicePdf: pdf };
}

/** The payment intent that paid an invoice: its InvoicePayment (current API versions name it nowhere else). */
export async function intentOfInvoice(stripe: StripeClient, invoiceId: string): Promise<string | null> {
  const paid = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
  const payment = paid.data.find((p) => p.status === 'paid' && p.payment?.type === 'payment_intent');
  const intent = payment?.payment?.payment_intent;
  return (typeof intent === 'string' ? intent : intent?.id) ?? null;
}
