CREATE TABLE "monitoring_portfolio_accounts" (
	"portfolio_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	CONSTRAINT "monitoring_portfolio_accounts_portfolio_id_account_id_pk" PRIMARY KEY("portfolio_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "monitoring_portfolios" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"monitoring_id" text NOT NULL,
	"name" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"hide_money" boolean DEFAULT false NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "monitoring_portfolios_name_check" CHECK (char_length("monitoring_portfolios"."name") between 1 and 60)
);
--> statement-breakpoint
ALTER TABLE "monitoring_portfolio_accounts" ADD CONSTRAINT "monitoring_portfolio_accounts_portfolio_id_monitoring_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."monitoring_portfolios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_portfolio_accounts" ADD CONSTRAINT "monitoring_portfolio_accounts_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_portfolios" ADD CONSTRAINT "monitoring_portfolios_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "monitoring_portfolio_accounts_account_idx" ON "monitoring_portfolio_accounts" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_portfolios_monitoring_id_key" ON "monitoring_portfolios" USING btree ("monitoring_id");--> statement-breakpoint
CREATE INDEX "monitoring_portfolios_user_id_idx" ON "monitoring_portfolios" USING btree ("user_id","id");