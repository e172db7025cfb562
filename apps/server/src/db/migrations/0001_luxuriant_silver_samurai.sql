CREATE TABLE "connectors" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "connectors_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"user_id" bigint NOT NULL,
	"provider_name" text NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"accounts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"branch" text,
	"secrets" "bytea",
	"secrets_key_id" text,
	"oauth_state" text,
	"expires_at" timestamp with time zone,
	"refresh_at" timestamp with time zone,
	"deactivated_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connectors_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "hooks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hooks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"short_key" text NOT NULL,
	"user_id" bigint NOT NULL,
	"connector_id" bigint NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"deactivated_reason" text,
	"invalid_count" integer DEFAULT 0 NOT NULL,
	"invalid_window_start" timestamp with time zone,
	"called_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hooks_key_unique" UNIQUE("key"),
	CONSTRAINT "hooks_short_key_unique" UNIQUE("short_key")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notifications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"user_id" bigint NOT NULL,
	"connector_id" bigint NOT NULL,
	"account_id" text NOT NULL,
	"type" integer NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "signal_keys" (
	"hook_id" bigint NOT NULL,
	"key" text NOT NULL,
	"signal_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "signal_keys_hook_id_key_pk" PRIMARY KEY("hook_id","key")
);
--> statement-breakpoint
CREATE TABLE "signals" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"hook_id" bigint NOT NULL,
	"connector_id" bigint NOT NULL,
	"account_id" text NOT NULL,
	"provider_name" text NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"request" jsonb,
	"order" jsonb,
	"response" jsonb,
	"broker_order_id" text,
	"price" double precision,
	"credit_held" boolean DEFAULT false NOT NULL,
	"address" text,
	"elapsed_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hooks" ADD CONSTRAINT "hooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hooks" ADD CONSTRAINT "hooks_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signal_keys" ADD CONSTRAINT "signal_keys_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signals" ADD CONSTRAINT "signals_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connectors_user_idx" ON "connectors" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connectors_oauth_state_idx" ON "connectors" USING btree ("oauth_state") WHERE "connectors"."oauth_state" is not null;--> statement-breakpoint
CREATE INDEX "connectors_refresh_idx" ON "connectors" USING btree ("refresh_at") WHERE "connectors"."is_active";--> statement-breakpoint
CREATE INDEX "hooks_user_idx" ON "hooks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "hooks_connector_idx" ON "hooks" USING btree ("connector_id");--> statement-breakpoint
CREATE INDEX "notifications_connector_idx" ON "notifications" USING btree ("connector_id","account_id");--> statement-breakpoint
CREATE INDEX "signal_keys_expires_idx" ON "signal_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "signals_user_created_idx" ON "signals" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "signals_hook_created_idx" ON "signals" USING btree ("hook_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "signals_unfinished_idx" ON "signals" USING btree ("created_at") WHERE "signals"."status" in ('received', 'placing', 'unknown');