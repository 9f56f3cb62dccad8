CREATE TABLE "monitoring_deals" (
	"account_id" bigint NOT NULL,
	"ticket" bigint NOT NULL,
	"order" bigint NOT NULL,
	"position_id" bigint NOT NULL,
	"time" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"entry" text NOT NULL,
	"symbol" text NOT NULL,
	"digits" integer NOT NULL,
	"volume" double precision NOT NULL,
	"price" double precision NOT NULL,
	"profit" double precision NOT NULL,
	"swap" double precision NOT NULL,
	"commission" double precision NOT NULL,
	"fee" double precision NOT NULL,
	"magic" bigint NOT NULL,
	"comment" text NOT NULL,
	"equity_before" double precision,
	CONSTRAINT "monitoring_deals_account_id_ticket_pk" PRIMARY KEY("account_id","ticket")
);
--> statement-breakpoint
CREATE TABLE "monitoring_equity" (
	"account_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"balance" double precision NOT NULL,
	"equity" double precision NOT NULL,
	"equity_low" double precision NOT NULL,
	"equity_high" double precision NOT NULL,
	"margin" double precision NOT NULL,
	"credit" double precision NOT NULL,
	CONSTRAINT "monitoring_equity_account_id_at_pk" PRIMARY KEY("account_id","at")
);
--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "server" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "company" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "leverage" integer;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "trade_mode" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "margin_mode" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "ea_version" text;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "hello_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "last_data_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "terminal_connected" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "balance" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "equity" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "margin" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "credit" double precision;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD COLUMN "positions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "monitoring_deals" ADD CONSTRAINT "monitoring_deals_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_equity" ADD CONSTRAINT "monitoring_equity_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_accounts_login_server_key" ON "monitoring_accounts" USING btree ("login","server") WHERE "monitoring_accounts"."server" is not null;