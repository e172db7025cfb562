ALTER TABLE "payments" ADD COLUMN "dispute" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "disputed" integer DEFAULT 0 NOT NULL;