DROP INDEX "notification_deliveries_waiting_idx";--> statement-breakpoint
DROP INDEX "notification_deliveries_digest_idx";--> statement-breakpoint
-- The event's type on each delivery, for the digest's per-kind look-ups: filled from the events
-- for the deliveries already there, then required.
ALTER TABLE "notification_deliveries" ADD COLUMN "type" text;--> statement-breakpoint
UPDATE "notification_deliveries" d SET "type" = e."type" FROM "notification_events" e WHERE e."id" = d."event_id";--> statement-breakpoint
ALTER TABLE "notification_deliveries" ALTER COLUMN "type" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "notification_deliveries_kind_idx" ON "notification_deliveries" USING btree ("notification_id","type","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notification_deliveries_waiting_idx" ON "notification_deliveries" USING btree ("notification_id","type","created_at") WHERE "notification_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "notification_deliveries_digest_idx" ON "notification_deliveries" USING btree ("notification_id","type","last_attempt_at" DESC NULLS LAST) WHERE "notification_deliveries"."in_digest" and "notification_deliveries"."status" = 'delivered';