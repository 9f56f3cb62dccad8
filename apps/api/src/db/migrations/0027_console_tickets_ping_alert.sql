CREATE TABLE "vps_console_tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"server_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "monitoring_alert_rules" DROP CONSTRAINT "monitoring_alert_rules_kind_check";--> statement-breakpoint
ALTER TABLE "vps_console_tickets" ADD CONSTRAINT "vps_console_tickets_server_id_vps_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."vps_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_console_tickets" ADD CONSTRAINT "vps_console_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vps_console_tickets_token_key" ON "vps_console_tickets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "vps_console_tickets_expires_idx" ON "vps_console_tickets" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "monitoring_alert_rules" ADD CONSTRAINT "monitoring_alert_rules_kind_check" CHECK ("monitoring_alert_rules"."kind" in ('drawdown', 'equity_below', 'margin_level', 'daily_loss', 'no_data', 'positions', 'ping_above'));