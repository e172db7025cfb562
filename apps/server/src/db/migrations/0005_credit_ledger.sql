CREATE TABLE "credit_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "credit_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"credits" integer NOT NULL,
	"recurring" integer DEFAULT 0 NOT NULL,
	"cause" text NOT NULL,
	"reference" text,
	"balance_after" integer NOT NULL,
	CONSTRAINT "credit_ledger_cause_check" CHECK (cause in ('signup', 'purchase', 'period', 'reward', 'referral', 'signal', 'refund', 'lapse', 'opening', 'adjustment')),
	CONSTRAINT "credit_ledger_recurring_check" CHECK (abs("credit_ledger"."recurring") <= abs("credit_ledger"."credits") and sign("credit_ledger"."recurring") * sign("credit_ledger"."credits") >= 0)
);
--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "balance" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "credits" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "signals_spent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "credit_ledger_user_idx" ON "credit_ledger" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "credit_ledger_grants_idx" ON "credit_ledger" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "credit_ledger"."credits" > 0 and "credit_ledger"."cause" not in ('refund', 'adjustment');--> statement-breakpoint
CREATE UNIQUE INDEX "credit_ledger_reference_idx" ON "credit_ledger" USING btree ("cause","reference") WHERE "credit_ledger"."reference" is not null;--> statement-breakpoint
-- Until now `credits` counted the one-time credits granted so far and `balance` the signals
-- left. Now `credits` holds the one-time credits left: the balance less the period's credits.
-- Users created before accounts existed get one, with the default credits they were shown.
INSERT INTO "accounts" ("user_id", "balance", "credits", "metadata")
  SELECT "id", 5, 5, '{"creditsTotal": 5}'::jsonb FROM "users" u
  WHERE NOT EXISTS (SELECT 1 FROM "accounts" a WHERE a."user_id" = u."id");
--> statement-breakpoint
UPDATE "accounts" SET
  "metadata" = CASE WHEN jsonb_typeof("metadata" -> 'creditsTotal') = 'number' THEN "metadata"
    ELSE "metadata" || jsonb_build_object('creditsTotal', "credits") END,
  "recurring_credits" = least(greatest("recurring_credits", 0), greatest("balance", 0)),
  "credits" = greatest("balance", 0) - least(greatest("recurring_credits", 0), greatest("balance", 0)),
  "balance" = greatest("balance", 0),
  "recurring_period_credits" = greatest("recurring_period_credits", 0);
--> statement-breakpoint
UPDATE "accounts" a SET "signals_spent" = s."n"
  FROM (SELECT "user_id", count(*)::int AS "n" FROM "signals" WHERE NOT "is_test" AND "credit_held" GROUP BY "user_id") s
  WHERE a."user_id" = s."user_id";
--> statement-breakpoint
-- The ledger opens with each balance.
INSERT INTO "credit_ledger" ("user_id", "credits", "recurring", "cause", "balance_after")
  SELECT "user_id", "balance", "recurring_credits", 'opening', "balance" FROM "accounts" WHERE "balance" <> 0;
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_balance_check" CHECK ("accounts"."balance" = "accounts"."credits" + "accounts"."recurring_credits");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_credits_check" CHECK ("accounts"."credits" >= 0 and "accounts"."recurring_credits" >= 0 and "accounts"."recurring_period_credits" >= 0);
--> statement-breakpoint
-- balance = credits + recurring_credits, whatever writes the row. A balance written alone (an
-- operator's SQL, older scripts) is a change of one-time credits (a decrease takes the period's
-- credits first, as a signal does), recorded in the ledger as an adjustment.
CREATE FUNCTION "accounts_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer;
  from_recurring integer := 0;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."balance" IS DISTINCT FROM OLD."balance"
      AND NEW."credits" = OLD."credits" AND NEW."recurring_credits" = OLD."recurring_credits" THEN
    delta := NEW."balance" - OLD."balance";
    IF delta < 0 THEN
      from_recurring := -least(OLD."recurring_credits", -delta);
    END IF;
    NEW."recurring_credits" := OLD."recurring_credits" + from_recurring;
    NEW."credits" := OLD."credits" + delta - from_recurring;
    INSERT INTO "credit_ledger" ("user_id", "credits", "recurring", "cause", "balance_after")
      VALUES (NEW."user_id", delta, from_recurring, 'adjustment', NEW."balance");
  ELSIF TG_OP = 'INSERT' AND NEW."credits" = 0 AND NEW."recurring_credits" = 0 THEN
    NEW."credits" := NEW."balance";
  END IF;
  NEW."balance" := NEW."credits" + NEW."recurring_credits";
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "accounts_balance" BEFORE INSERT OR UPDATE ON "accounts" FOR EACH ROW EXECUTE FUNCTION "accounts_balance"();
--> statement-breakpoint
-- An account created with credits opens its ledger with them (after the insert: an insert that
-- ends in ON CONFLICT DO NOTHING records nothing).
CREATE FUNCTION "accounts_opened"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "credit_ledger" ("user_id", "credits", "recurring", "cause", "balance_after")
    VALUES (NEW."user_id", NEW."balance", NEW."recurring_credits", 'opening', NEW."balance");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "accounts_opened" AFTER INSERT ON "accounts" FOR EACH ROW WHEN (NEW."balance" <> 0) EXECUTE FUNCTION "accounts_opened"();
--> statement-breakpoint
-- The ledger is append-only: no UPDATE, no TRUNCATE, and a DELETE only of the rows of a user
-- being deleted (trigger credit_ledger_user_deleted).
CREATE FUNCTION "credit_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW' THEN
    IF NOT EXISTS (SELECT 1 FROM "users" WHERE "id" = OLD."user_id") THEN
      RETURN OLD;
    END IF;
  END IF;
  RAISE EXCEPTION 'credit_ledger is append-only: % refused', TG_OP USING ERRCODE = '42501';
END $$;
--> statement-breakpoint
CREATE TRIGGER "credit_ledger_no_update" BEFORE UPDATE ON "credit_ledger" FOR EACH STATEMENT EXECUTE FUNCTION "credit_ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "credit_ledger_no_delete" BEFORE DELETE ON "credit_ledger" FOR EACH ROW EXECUTE FUNCTION "credit_ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "credit_ledger_no_truncate" BEFORE TRUNCATE ON "credit_ledger" FOR EACH STATEMENT EXECUTE FUNCTION "credit_ledger_append_only"();
--> statement-breakpoint
CREATE FUNCTION "credit_ledger_user_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "credit_ledger" WHERE "user_id" = OLD."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "credit_ledger_user_deleted" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "credit_ledger_user_deleted"();
