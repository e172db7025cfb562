// Why a webhook is deactivated, in the trader's words. The server stores a reason when it turns a
// hook off (hooks.deactivated_reason); unknown reasons are shown as they are.

/** The hook endpoint's reason after HOOK_INVALID_THRESHOLD invalid requests within an hour. */
const INVALID_REQUESTS = 'too many invalid requests';

export function deactivationText(reason: string | null | undefined, accountConnected: boolean): string {
  if (!accountConnected) return 'Its broker account is no longer connected: reconnect the broker with that account.';
  if (reason === INVALID_REQUESTS) {
    return 'It received too many invalid requests within an hour. Check the alert message (the last calls show what was wrong) before you reactivate it.';
  }
  if (reason) return `Deactivated: ${reason}.`;
  return 'Deactivated after its account was disconnected or after repeated invalid requests.';
}
