// The welcome tour is offered until it is skipped or finished, then never again in this browser
// for that user (a per-user key, so a shared browser does not hide it from someone else).
const keyOf = (userKey: string) => `tourDismissed:${userKey}`;

export function isTourDismissed(userKey: string): boolean {
  try {
    return window.localStorage.getItem(keyOf(userKey)) !== null;
  } catch {
    return false;
  }
}

export function dismissTour(userKey: string): void {
  try {
    window.localStorage.setItem(keyOf(userKey), new Date().toISOString());
  } catch {
    // Storage unavailable (privacy mode): the tour may be offered again next time.
  }
}
