CREATE TABLE "monitoring_alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"value" double precision,
	"threshold" double precision,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"email_status" text DEFAULT 'pending' NOT NULL,
	"telegram_status" text DEFAULT 'pending' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_alert_rules" (
	"account_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"threshold" double precision,
	"fired_at" timestamp with time zone,
	"base" double precision,
	"base_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitoring_alert_rules_account_id_kind_pk" PRIMARY KEY("account_id","kind"),
	CONSTRAINT "monitoring_alert_rules_kind_check" CHECK ("monitoring_alert_rules"."kind" in ('drawdown', 'equity_below', 'margin_level', 'daily_loss', 'no_data', 'positions')),
	CONSTRAINT "monitoring_alert_rules_threshold_check" CHECK (("monitoring_alert_rules"."kind" = 'positions') = ("monitoring_alert_rules"."threshold" is null))
);
--> statement-breakpoint
CREATE TABLE "monitoring_reports_sent" (
	"account_id" bigint NOT NULL,
	"period" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "monitoring_reports_sent_account_id_period_period_start_pk" PRIMARY KEY("account_id","period","period_start"),
	CONSTRAINT "monitoring_reports_sent_period_check" CHECK ("monitoring_reports_sent"."period" in ('daily', 'weekly', 'monthly'))
);
--> statement-breakpoint
CREATE TABLE "telegram_chats" (
	"user_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"chat_id" bigint NOT NULL,
	"title" text NOT NULL,
	"linked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "telegram_chats_user_id_purpose_pk" PRIMARY KEY("user_id","purpose"),
	CONSTRAINT "telegram_chats_purpose_check" CHECK ("telegram_chats"."purpose" in ('account', 'monitoring'))
);
--> statement-breakpoint
CREATE TABLE "telegram_link_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "telegram_link_tokens_purpose_check" CHECK ("telegram_link_tokens"."purpose" in ('account', 'monitoring'))
);
--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "publisher_ip" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "alerts_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "alert_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "alert_telegram" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "report_daily" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "report_weekly" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "report_monthly" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "report_email" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "report_telegram" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_alert_events" ADD CONSTRAINT "monitoring_alert_events_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_alert_rules" ADD CONSTRAINT "monitoring_alert_rules_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_reports_sent" ADD CONSTRAINT "monitoring_reports_sent_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_chats" ADD CONSTRAINT "telegram_chats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "telegram_link_tokens" ADD CONSTRAINT "telegram_link_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitoring_alert_events_account_idx" ON "monitoring_alert_events" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_chats_purpose_chat_key" ON "telegram_chats" USING btree ("purpose","chat_id");--> statement-breakpoint
CREATE INDEX "telegram_link_tokens_user_id_idx" ON "telegram_link_tokens" USING btree ("user_id");