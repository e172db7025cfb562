-- Live activity (issue #21): every insert into actions tells listeners whose log grew, once per
-- statement (the hook's batches hold many users), as 'activity_added' with the user ids; an
-- empty payload (ids past NOTIFY's 8000 bytes) means anyone's.
CREATE FUNCTION actions_notify_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('activity_added', CASE WHEN length(ids) > 7900 THEN '' ELSE ids END)
    FROM (SELECT string_agg(DISTINCT user_id::text, ',') AS ids FROM added) s
    WHERE ids IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER actions_notify_added AFTER INSERT ON actions
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION actions_notify_added();
