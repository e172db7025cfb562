CREATE TABLE "hook_pauses" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hook_pauses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hook_pauses" ADD CONSTRAINT "hook_pauses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hook_pauses_scope_idx" ON "hook_pauses" USING btree (coalesce("user_id", 0));--> statement-breakpoint
-- The pauses in force before this table, as the paused webhooks tell them.
INSERT INTO "hook_pauses" ("user_id", "reason")
  SELECT DISTINCT ON ("user_id") "user_id", "paused_reason" FROM "hooks"
  WHERE "paused_reason" IS NOT NULL AND NOT "paused_by_admin" ORDER BY "user_id", "id";--> statement-breakpoint
INSERT INTO "hook_pauses" ("user_id", "reason")
  SELECT NULL, "paused_reason" FROM "hooks" WHERE "paused_by_admin" AND "paused_reason" IS NOT NULL ORDER BY "id" LIMIT 1;
