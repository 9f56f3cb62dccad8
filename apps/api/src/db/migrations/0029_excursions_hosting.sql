CREATE TABLE "monitoring_verification" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"run_started_at" timestamp with time zone,
	"last_hosted_at" timestamp with time zone,
	"checked_until" timestamp with time zone NOT NULL,
	"broken_reason" text,
	"broken_from" timestamp with time zone,
	"broken_to" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "monitoring_verification_reason_check" CHECK ("monitoring_verification"."broken_reason" is null or "monitoring_verification"."broken_reason" in ('gap', 'elsewhere'))
);
--> statement-breakpoint
ALTER TABLE "monitoring_deals" ADD COLUMN "mae" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_deals" ADD COLUMN "mfe" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_deals" ADD COLUMN "mae_points" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_deals" ADD COLUMN "mfe_points" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_equity" ADD COLUMN "hosted" boolean;--> statement-breakpoint
ALTER TABLE "monitoring_verification" ADD CONSTRAINT "monitoring_verification_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vps_servers_host_idx" ON "vps_servers" USING btree ("host");