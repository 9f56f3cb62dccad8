CREATE TABLE "vps_snapshots" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"server_id" bigint NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'creating' NOT NULL,
	"automatic" boolean DEFAULT false NOT NULL,
	"taken_at" timestamp with time zone,
	CONSTRAINT "vps_snapshots_status_check" CHECK ("vps_snapshots"."status" in ('creating', 'ready', 'deleting'))
);
--> statement-breakpoint
ALTER TABLE "vps_operations" DROP CONSTRAINT "vps_operations_kind_check";--> statement-breakpoint
ALTER TABLE "vps_snapshots" ADD CONSTRAINT "vps_snapshots_server_id_vps_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."vps_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vps_snapshots_server_id_idx" ON "vps_snapshots" USING btree ("server_id","id");--> statement-breakpoint
ALTER TABLE "vps_operations" ADD CONSTRAINT "vps_operations_kind_check" CHECK ("vps_operations"."kind" in ('create', 'start', 'shutdown', 'reboot', 'upgrade', 'block', 'reactivate', 'revoke', 'snapshot', 'rollback', 'snapshot_delete', 'reinstall', 'password_reset'));