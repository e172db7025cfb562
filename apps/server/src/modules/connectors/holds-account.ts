// Whether a broker connection still brings an account. A reconnect may bring fewer (one left out
// at the broker's consent, one closed there), and a broker refuses an account outside the
// connection as it refuses credentials: calling it would deactivate the whole connection.
export function holdsAccount(
  connector: { accounts: ReadonlyArray<{ id: string }> },
  accountId: string | null | undefined,
): boolean {
  return connector.accounts.some((account) => account.id === accountId);
}
