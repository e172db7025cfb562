-- Events queued before hook.shortKey (a webhook URL's secret, which places orders) was left out
-- of their data still held it at rest; the delivery claim dropped it from each delivery. Dropped
-- from the stored events once, so the claim reads the data as stored.
UPDATE "notification_events" SET "data" = "data" #- '{hook,shortKey}' WHERE "data" -> 'hook' ? 'shortKey';
