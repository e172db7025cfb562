// `accountInvoice` (SPEC §3 Invoice): the PDF link of one of the caller's invoices, asked of
// Stripe each time (its links expire). Only invoices recorded for the caller's payments.
import { findPaymentByInvoice } from '../../db/repositories/payments.repository.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../graphql/context.ts';
import type { Services } from '../../services.ts';
import { isMissing, stripeClient, stripeFailure } from './stripe-client.ts';

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
