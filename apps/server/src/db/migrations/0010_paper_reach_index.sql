CREATE TABLE "paper_symbols" (
	"account_id" text NOT NULL,
	"symbol" text NOT NULL,
	"open" integer NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "paper_symbols_account_id_symbol_pk" PRIMARY KEY("account_id","symbol")
);
--> statement-breakpoint
DROP INDEX "paper_orders_open_idx";--> statement-breakpoint
ALTER TABLE "paper_orders" ADD COLUMN "symbol" text;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD COLUMN "reach_low" double precision;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD COLUMN "reach_high" double precision;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD COLUMN "expires_at" bigint;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD COLUMN "filled_at" bigint;--> statement-breakpoint
ALTER TABLE "paper_symbols" ADD CONSTRAINT "paper_symbols_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "paper_symbols_active_idx" ON "paper_symbols" USING btree ("account_id") WHERE "paper_symbols"."open" > 0;--> statement-breakpoint
CREATE INDEX "paper_orders_reach_low_idx" ON "paper_orders" USING btree ("account_id","symbol","reach_low") WHERE "paper_orders"."status" = 'open';--> statement-breakpoint
CREATE INDEX "paper_orders_reach_high_idx" ON "paper_orders" USING btree ("account_id","symbol","reach_high") WHERE "paper_orders"."status" = 'open';--> statement-breakpoint
CREATE INDEX "paper_orders_fills_idx" ON "paper_orders" USING btree ("account_id","filled_at") WHERE "paper_orders"."status" = 'filled';--> statement-breakpoint
CREATE INDEX "paper_orders_open_idx" ON "paper_orders" USING btree ("account_id","symbol","created_at") WHERE "paper_orders"."status" = 'open';--> statement-breakpoint
-- Hand-written: rows written before these columns, read as the simulator reads them (packages/brokers matching.ts reachLevels).
UPDATE "paper_orders" SET
  "symbol" = "data"->>'symbol',
  "expires_at" = ("data"->>'expiresAt')::bigint,
  "filled_at" = ("data"->>'filledAt')::bigint,
  "reach_low" = CASE
    WHEN "status" <> 'open' THEN NULL
    WHEN "data"->>'type' = 'limit' OR ("data"->>'type' = 'stop_limit' AND ("data"->>'triggered')::boolean)
      THEN CASE WHEN "data"->>'side' = 'buy' THEN ("data"->>'limitPrice')::float8 END
    ELSE CASE WHEN "data"->>'side' = 'sell' THEN ("data"->>'stopPrice')::float8 END
  END,
  "reach_high" = CASE
    WHEN "status" <> 'open' THEN NULL
    WHEN "data"->>'type' = 'limit' OR ("data"->>'type' = 'stop_limit' AND ("data"->>'triggered')::boolean)
      THEN CASE WHEN "data"->>'side' = 'sell' THEN ("data"->>'limitPrice')::float8 END
    ELSE CASE WHEN "data"->>'side' = 'buy' THEN ("data"->>'stopPrice')::float8 END
  END;
--> statement-breakpoint
-- Each symbol with open orders gets its state, swept as far as its account was.
INSERT INTO "paper_symbols" ("account_id", "symbol", "open", "data")
SELECT o."account_id", o."symbol", count(*), jsonb_strip_nulls(jsonb_build_object(
  'symbol', o."symbol",
  'class', min(o."data"->>'class'),
  'sweptAt', max((a."data"->>'sweptAt')::bigint),
  'open', count(*),
  'expiresAt', min(o."expires_at")))
FROM "paper_orders" o JOIN "paper_accounts" a ON a."id" = o."account_id"
WHERE o."status" = 'open'
GROUP BY o."account_id", o."symbol";
--> statement-breakpoint
-- Accounts keep what their open orders hold instead of an account-wide sweep instant.
UPDATE "paper_accounts" a SET "data" = (a."data" - 'sweptAt') || jsonb_build_object('reserved', coalesce(
  (SELECT sum((o."data"->>'reservation')::float8) FROM "paper_orders" o WHERE o."account_id" = a."id" AND o."status" = 'open'),
  0));
