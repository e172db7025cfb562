ALTER TABLE "signal_keys" DROP CONSTRAINT "signal_keys_hook_id_hooks_id_fk";
--> statement-breakpoint
ALTER TABLE "signals" DROP CONSTRAINT "signals_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "signals" DROP CONSTRAINT "signals_hook_id_hooks_id_fk";
--> statement-breakpoint
-- What the foreign keys did on deletion, from the parent's side: nothing left to check per insert.
CREATE FUNCTION "hooks_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "signal_keys" WHERE "hook_id" = OLD."id";
  UPDATE "signals" SET "hook_id" = NULL WHERE "hook_id" = OLD."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "hooks_deleted" AFTER DELETE ON "hooks" FOR EACH ROW EXECUTE FUNCTION "hooks_deleted"();
--> statement-breakpoint
CREATE FUNCTION "signals_user_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "signals" WHERE "user_id" = OLD."id";
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "signals_user_deleted" AFTER DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "signals_user_deleted"();
