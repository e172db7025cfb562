// The claim of a row by one instance (reconciliation's signals, queued signals): who holds it,
// until when, and how many claims so far; a result is written only by the claim it belongs to
// (the fence on `attempts`).
import { integer, text, timestamp } from 'drizzle-orm/pg-core';

export const leaseColumns = () => ({
  leaseOwner: text('lease_owner'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
  attempts: integer('attempts').notNull().default(0),
});
