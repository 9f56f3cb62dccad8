ALTER TABLE "monitoring_accounts" ADD COLUMN "flows" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_deals" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitoring_equity" ADD COLUMN "segment" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_equity" ADD COLUMN "last_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitoring_equity" DROP CONSTRAINT "monitoring_equity_account_id_at_pk";--> statement-breakpoint
ALTER TABLE "monitoring_equity" ADD CONSTRAINT "monitoring_equity_account_id_at_segment_pk" PRIMARY KEY("account_id","at","segment");
