// Group bits of users (SPEC §6: 1 administrator, 4 customer, 16 professional) and who administers.
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';

const ADMIN = 1;

/** Serializes the choice of the first administrator across requests and instances. */
export async function lockAdministrators(db: Executor): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('users:administrators'))`);
}

export async function hasConfirmedAdministrator(db: Executor): Promise<boolean> {
  const { rows } = await db.execute(
    sql`select 1 from users where "group" & ${ADMIN} = ${ADMIN} and email_confirmed_at is not null limit 1`,
  );
  return rows.length > 0;
}

/** Sets and clears bits; the user's new group, or null when there is no such user. */
export async function changeGroup(
  db: Executor,
  userId: number,
  change: { add?: number; remove?: number },
): Promise<number | null> {
  const { rows } = await db.execute<{ group: number } & Record<string, unknown>>(sql`
    update users set "group" = ("group" | ${change.add ?? 0}) & ~${change.remove ?? 0}::int
    where id = ${userId} returning "group"`);
  return rows[0]?.group ?? null;
}

/** Confirmed users with one of these emails become administrators; their ids. */
export async function promoteConfirmedEmails(db: Executor, emails: readonly string[]): Promise<number[]> {
  if (emails.length === 0) return [];
  const { rows } = await db.execute<{ id: number } & Record<string, unknown>>(sql`
    update users set "group" = "group" | ${ADMIN}
    where lower(email) = any(${sql`array[${sql.join(
      emails.map((e) => sql`${e.toLowerCase()}`),
      sql`, `,
    )}]::text[]`})
      and email_confirmed_at is not null and "group" & ${ADMIN} = 0
    returning id::float8 as id`);
  return rows.map((r) => r.id);
}

/** The earliest confirmed user becomes administrator; its id, or null without confirmed users. */
export async function promoteEarliestConfirmed(db: Executor): Promise<number | null> {
  const { rows } = await db.execute<{ id: number } & Record<string, unknown>>(sql`
    update users set "group" = "group" | ${ADMIN}
    where id = (select id from users where email_confirmed_at is not null order by email_confirmed_at, id limit 1)
    returning id::float8 as id`);
  return rows[0]?.id ?? null;
}
