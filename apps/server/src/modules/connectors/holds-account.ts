// Whether a broker connection still brings an account. A reconnect may bring fewer (one left out
// at the broker's consent, one closed there): a call for an account outside the connection is
// answered before any broker call (the adapters refuse it too, as that one call's refusal).
export function holdsAccount(
  connector: { accounts: ReadonlyArray<{ id: string }> },
  accountId: string | null | undefined,
): boolean {
  return connector.accounts.some((account) => account.id === accountId);
}
