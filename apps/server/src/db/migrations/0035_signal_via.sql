-- Who placed a REST API order (the application, or the personal token by its name), for its
-- notifications; null for a webhook's signal and for orders placed before.
ALTER TABLE "signals" ADD COLUMN "via" text;