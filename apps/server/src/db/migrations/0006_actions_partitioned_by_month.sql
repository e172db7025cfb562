-- The activity log (actions) becomes a table partitioned by month of created_at (UTC), so the
-- retention job removes old entries by dropping whole months (modules/actions/retention.ts).
-- Written by hand: drizzle-kit does not express partitioning. The rows are copied over.
-- A partitioned table's primary key must hold the partition key: (id, created_at). The id
-- comes from a sequence, since identity columns on partitioned tables need PostgreSQL 17.
ALTER TABLE "actions" RENAME TO "actions_unpartitioned";--> statement-breakpoint
ALTER TABLE "actions_unpartitioned" RENAME CONSTRAINT "actions_pkey" TO "actions_unpartitioned_pkey";--> statement-breakpoint
ALTER TABLE "actions_unpartitioned" RENAME CONSTRAINT "actions_user_id_users_id_fk" TO "actions_unpartitioned_user_id_fk";--> statement-breakpoint
ALTER INDEX "actions_user_created_idx" RENAME TO "actions_unpartitioned_user_created_idx";--> statement-breakpoint
ALTER INDEX "actions_user_code_created_idx" RENAME TO "actions_unpartitioned_user_code_created_idx";--> statement-breakpoint
ALTER TABLE "actions_unpartitioned" ALTER COLUMN "id" DROP IDENTITY;--> statement-breakpoint
CREATE TABLE "actions" (
	"id" bigserial NOT NULL,
	"user_id" bigint NOT NULL,
	"code" text NOT NULL,
	"address" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "actions_pkey" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "actions_user_created_idx" ON "actions" USING btree ("user_id","created_at" desc);--> statement-breakpoint
CREATE INDEX "actions_user_code_created_idx" ON "actions" USING btree ("user_id","code","created_at");--> statement-breakpoint
-- Rows of a month without its partition yet (a server stopped for months) land here, and move
-- to their month when it is created.
CREATE TABLE "actions_default" PARTITION OF "actions" DEFAULT;--> statement-breakpoint
-- actions_YYYY_MM for the month (UTC) holding `at`, unless it exists; returns whether it made it.
CREATE FUNCTION "actions_create_month"("at" timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamp := date_trunc('month', "at" AT TIME ZONE 'UTC');
  month_from timestamptz := month_start AT TIME ZONE 'UTC';
  month_to timestamptz := (month_start + interval '1 month') AT TIME ZONE 'UTC';
  name text := 'actions_' || to_char(month_start, 'YYYY_MM');
BEGIN
  IF to_regclass(quote_ident(name)) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE "actions" INCLUDING DEFAULTS)', name);
  EXECUTE format(
    'WITH moved AS (DELETE FROM "actions_default" WHERE "created_at" >= %L AND "created_at" < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
    month_from, month_to, name);
  EXECUTE format('ALTER TABLE "actions" ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, month_from, month_to);
  RETURN true;
END $$;--> statement-breakpoint
-- Drops the month partitions that end at or before `cutoff`; returns how many.
CREATE FUNCTION "actions_drop_months_before"("cutoff" timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  part record;
  dropped integer := 0;
BEGIN
  FOR part IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = '"actions"'::regclass AND c.relname ~ '^actions_[0-9]{4}_[0-9]{2}$'
  LOOP
    IF (to_date(substr(part.relname, 9), 'YYYY_MM') + interval '1 month') AT TIME ZONE 'UTC' <= "cutoff" THEN
      EXECUTE format('DROP TABLE %I', part.relname);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  RETURN dropped;
END $$;--> statement-breakpoint
-- The existing rows' months and the next two, then the rows themselves and the id sequence.
SELECT "actions_create_month"(m AT TIME ZONE 'UTC')
FROM generate_series(
  date_trunc('month', coalesce((SELECT min("created_at") FROM "actions_unpartitioned"), now()) AT TIME ZONE 'UTC'),
  (now() AT TIME ZONE 'UTC') + interval '2 months',
  interval '1 month'
) AS m;--> statement-breakpoint
INSERT INTO "actions" ("id", "user_id", "code", "address", "metadata", "created_at")
SELECT "id", "user_id", "code", "address", "metadata", "created_at" FROM "actions_unpartitioned";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"actions"', 'id'), coalesce(max("id"), 0) + 1, false) FROM "actions_unpartitioned";--> statement-breakpoint
DROP TABLE "actions_unpartitioned";
