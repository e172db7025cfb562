// Newest first, in the order the schema's `.desc()` indexes keep: drizzle-kit writes those
// indexes DESC NULLS LAST, while SQL's plain `desc` means NULLS FIRST, an order no such index can
// serve. Ordered plainly, a newest-first page reads and sorts every row of the user (or of the whole
// table) instead of its page (newest-first.test.ts). In raw SQL, write `desc nulls last`.
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

export const newestFirst = (column: AnyPgColumn): SQL => sql`${column} desc nulls last`;
