// Test support: trading windows that hold a signal sent now (queued tests).
export const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** Windows on every day but today (UTC): a signal now is outside them; the next opens at 00:00 UTC. */
export const closedToday = () => {
  const today = DAYS[new Date().getUTCDay()];
  return [{ days: DAYS.filter((d) => d !== today), from: '00:00', to: '24:00', timeZone: 'UTC' }];
};

/** The next 00:00 UTC: when `closedToday`'s windows open. */
export const nextMidnight = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
};
