CREATE TABLE "operator_roles" (
	"user_id" bigint NOT NULL,
	"role" text NOT NULL,
	"granted_by" bigint,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_roles_user_id_role_pk" PRIMARY KEY("user_id","role"),
	CONSTRAINT "operator_roles_role_check" CHECK ("operator_roles"."role" in ('support', 'billing', 'vps', 'monitoring', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "operator_roles" ADD CONSTRAINT "operator_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_roles" ADD CONSTRAINT "operator_roles_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_roles_role_idx" ON "operator_roles" USING btree ("role");--> statement-breakpoint
-- Every operator of the one role there was keeps everything: users.role 'admin' becomes the
-- operator role 'admin' (granted by nobody: the move itself).
INSERT INTO "operator_roles" ("user_id", "role", "granted_by", "granted_at")
  SELECT "id", 'admin', NULL, now() FROM "users" WHERE "role" = 'admin';
--> statement-breakpoint
-- users.role follows operator_roles: 'admin' while the user holds any operator role, else 'user'
-- (what the console's menu and the shorter operator sign-in read).
CREATE FUNCTION "operator_roles_sync_user_role"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  who bigint := CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END;
BEGIN
  UPDATE "users"
     SET "role" = CASE WHEN EXISTS (SELECT 1 FROM "operator_roles" WHERE "user_id" = who)
                       THEN 'admin' ELSE 'user' END
   WHERE "id" = who;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "operator_roles_sync_user_role" AFTER INSERT OR DELETE ON "operator_roles"
  FOR EACH ROW EXECUTE FUNCTION "operator_roles_sync_user_role"();
--> statement-breakpoint
-- ...and nothing else sets it: a new user is a 'user', and only the trigger above (one level
-- down) changes the column, so it cannot say 'admin' of someone who holds no role.
CREATE FUNCTION "users_role_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.role <> 'user' THEN
      RAISE EXCEPTION 'a new user holds no operator role: grant one in operator_roles'
        USING ERRCODE = 'check_violation';
    END IF;
  ELSIF NEW.role IS DISTINCT FROM OLD.role AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'users.role follows operator_roles: grant or revoke a role there'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_role_guard" BEFORE INSERT OR UPDATE OF "role" ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_role_guard"();
--> statement-breakpoint
-- The operator audit is append-only, as the ledger and the security log: rows are written once,
-- in the transaction of what they record, and never changed or removed.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
--> statement-breakpoint
-- An operator's sign-in and step-up join the operator audit as the security log records them,
-- whatever path wrote the event (password, second factor, passkey): one row each, in the same
-- transaction, for whoever holds an operator role at that moment.
CREATE FUNCTION "security_events_operator_audit"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "operator_roles" WHERE "user_id" = NEW.user_id) THEN
    INSERT INTO "audit_log" ("created_at", "actor_id", "action", "subject_type", "subject_id", "details")
    VALUES (NEW.at, NEW.user_id, 'operator.' || NEW.kind, 'session', NEW.session_id::text,
            NEW.detail || jsonb_build_object('ip', NEW.ip, 'user_agent', NEW.user_agent,
                                             'security_event_id', NEW.id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "security_events_operator_audit" AFTER INSERT ON "security_events"
  FOR EACH ROW WHEN (NEW.kind IN ('sign_in', 'step_up'))
  EXECUTE FUNCTION "security_events_operator_audit"();
