CREATE TABLE "hook_order_counts" (
	"hook_id" bigint NOT NULL,
	"recent" timestamp with time zone[] DEFAULT '{}' NOT NULL,
	"day" date NOT NULL,
	"day_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "hook_order_counts_hook_id_pk" PRIMARY KEY("hook_id")
);
--> statement-breakpoint
ALTER TABLE "hooks" ADD COLUMN "rules" jsonb;--> statement-breakpoint
ALTER TABLE "hooks" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "hook_order_counts" ADD CONSTRAINT "hook_order_counts_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;