CREATE TABLE "notification_digests" (
	"notification_id" bigint NOT NULL,
	"type" text NOT NULL,
	"collecting_until" timestamp with time zone NOT NULL,
	CONSTRAINT "notification_digests_pkey" PRIMARY KEY("notification_id","type")
);
--> statement-breakpoint
ALTER TABLE "notification_digests" ADD CONSTRAINT "notification_digests_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;