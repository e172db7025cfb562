CREATE TABLE "accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"type" integer DEFAULT 1 NOT NULL,
	"balance" integer DEFAULT 5 NOT NULL,
	"credits" integer DEFAULT 5 NOT NULL,
	"recurring_credits" integer DEFAULT 0 NOT NULL,
	"recurring_period_credits" integer DEFAULT 0 NOT NULL,
	"recurring_period_end" timestamp with time zone,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_user_id_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "actions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"code" text NOT NULL,
	"address" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_tokens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"token_hash" text NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "paper_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"data" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_orders" (
	"account_id" text NOT NULL,
	"id" text NOT NULL,
	"client_order_id" text,
	"status" text NOT NULL,
	"created_at" bigint NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "paper_orders_account_id_id_pk" PRIMARY KEY("account_id","id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"suffix" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"address" text,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sessions_key_unique" UNIQUE("key"),
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "signals" DROP CONSTRAINT "signals_hook_id_hooks_id_fk";
--> statement-breakpoint
ALTER TABLE "signals" ALTER COLUMN "hook_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "passcode_secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "passcode_active_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "passcode_last_step" bigint;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actions" ADD CONSTRAINT "actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD CONSTRAINT "paper_orders_account_id_paper_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."paper_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "actions_user_created_idx" ON "actions" USING btree ("user_id","created_at" desc);--> statement-breakpoint
CREATE INDEX "actions_user_code_created_idx" ON "actions" USING btree ("user_id","code","created_at");--> statement-breakpoint
CREATE INDEX "email_tokens_user_purpose_idx" ON "email_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "paper_orders_client_idx" ON "paper_orders" USING btree ("account_id","client_order_id") WHERE "paper_orders"."client_order_id" is not null;--> statement-breakpoint
CREATE INDEX "paper_orders_open_idx" ON "paper_orders" USING btree ("account_id","created_at") WHERE "paper_orders"."status" = 'open';--> statement-breakpoint
CREATE INDEX "sessions_user_kind_idx" ON "sessions" USING btree ("user_id","kind");--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_type_idx" ON "notifications" USING btree ("connector_id","account_id","type");--> statement-breakpoint
CREATE INDEX "signals_user_stats_idx" ON "signals" USING btree ("user_id","created_at","hook_id","is_test","provider_name");--> statement-breakpoint
CREATE INDEX "signals_user_errors_idx" ON "signals" USING btree ("user_id","created_at","hook_id","provider_name") WHERE not "signals"."is_test" and "signals"."status" in ('rejected', 'failed');--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_live_credit_check" CHECK ("signals"."is_test" or "signals"."credit_held" or "signals"."status" <> 'placing');