CREATE TABLE "queued_signals" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"hook_id" bigint NOT NULL,
	"key" text NOT NULL,
	"request" text NOT NULL,
	"order" jsonb NOT NULL,
	"address" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"release_at" timestamp with time zone NOT NULL,
	"response" jsonb,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "queued_signals" ADD CONSTRAINT "queued_signals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queued_signals" ADD CONSTRAINT "queued_signals_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "queued_signals_due_idx" ON "queued_signals" USING btree ("release_at") WHERE "queued_signals"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "queued_signals_user_idx" ON "queued_signals" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "queued_signals_waiting_key_idx" ON "queued_signals" USING btree ("hook_id","key") WHERE "queued_signals"."status" = 'queued';