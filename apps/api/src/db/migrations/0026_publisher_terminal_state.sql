CREATE TABLE "monitoring_pings" (
	"account_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"ping_ms" integer NOT NULL,
	"server" text,
	"location" text,
	"user_id" bigint NOT NULL,
	CONSTRAINT "monitoring_pings_account_id_at_pk" PRIMARY KEY("account_id","at")
);
--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "ping_ms" integer;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "trade_allowed" boolean;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "ea_trade_allowed" boolean;--> statement-breakpoint
ALTER TABLE "monitoring_pings" ADD CONSTRAINT "monitoring_pings_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitoring_pings_server_idx" ON "monitoring_pings" USING btree (lower("server") text_pattern_ops,"at");