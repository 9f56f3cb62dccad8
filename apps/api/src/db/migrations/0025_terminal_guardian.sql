CREATE TABLE "vps_guardian_incidents" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"server_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"alert_event_id" bigint,
	"silent_since" timestamp with time zone NOT NULL,
	"cause" text NOT NULL,
	"action" text DEFAULT 'none' NOT NULL,
	"operation_id" bigint,
	"acted_at" timestamp with time zone,
	"positions" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "vps_guardian_incidents_status_check" CHECK ("vps_guardian_incidents"."status" in ('open', 'resolved', 'escalated', 'notified'))
);
--> statement-breakpoint
ALTER TABLE "vps_operations" DROP CONSTRAINT "vps_operations_kind_check";--> statement-breakpoint
ALTER TABLE "vps_servers" ADD COLUMN "guardian_policy" text DEFAULT 'restart' NOT NULL;--> statement-breakpoint
ALTER TABLE "vps_servers" ADD COLUMN "guardian_reboot_after_minutes" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "vps_servers" ADD COLUMN "guardian_reboot_with_positions" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "vps_guardian_incidents" ADD CONSTRAINT "vps_guardian_incidents_server_id_vps_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."vps_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vps_guardian_incidents_server_idx" ON "vps_guardian_incidents" USING btree ("server_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "vps_guardian_incidents_open_key" ON "vps_guardian_incidents" USING btree ("server_id") WHERE "vps_guardian_incidents"."status" = 'open';--> statement-breakpoint
ALTER TABLE "vps_operations" ADD CONSTRAINT "vps_operations_kind_check" CHECK ("vps_operations"."kind" in ('create', 'start', 'shutdown', 'reboot', 'upgrade', 'block', 'reactivate', 'revoke', 'snapshot', 'rollback', 'snapshot_delete', 'reinstall', 'password_reset', 'terminal_restart'));--> statement-breakpoint
ALTER TABLE "vps_servers" ADD CONSTRAINT "vps_servers_guardian_policy_check" CHECK ("vps_servers"."guardian_policy" in ('notify', 'restart', 'restart_then_reboot'));