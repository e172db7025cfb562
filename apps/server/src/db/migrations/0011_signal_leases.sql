ALTER TABLE "signals" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "signals" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signals" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;