// Sending the browser to Stripe (Checkout, the billing portal, an invoice PDF): one seam, which
// component tests replace.
export const leaveFor = {
  assign(url: string): void {
    window.location.assign(url);
  },
};
