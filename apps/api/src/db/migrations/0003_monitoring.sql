CREATE TABLE "monitoring_accounts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"subscription_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"monitoring_id" text NOT NULL,
	"login" bigint NOT NULL,
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"hide_login" boolean DEFAULT true NOT NULL,
	"hide_broker" boolean DEFAULT false NOT NULL,
	"hide_money" boolean DEFAULT false NOT NULL,
	"hide_positions" boolean DEFAULT false NOT NULL,
	"hide_history" boolean DEFAULT false NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "monitoring_accounts_platform_check" CHECK ("monitoring_accounts"."platform" in ('MT4', 'MT5')),
	CONSTRAINT "monitoring_accounts_name_check" CHECK (char_length("monitoring_accounts"."name") between 1 and 60)
);
--> statement-breakpoint
CREATE TABLE "monitoring_period_discounts" (
	"months" integer PRIMARY KEY NOT NULL,
	"discount_percent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "monitoring_period_discounts_months_check" CHECK ("monitoring_period_discounts"."months" between 1 and 12),
	CONSTRAINT "monitoring_period_discounts_percent_check" CHECK ("monitoring_period_discounts"."discount_percent" between 0 and 90)
);
--> statement-breakpoint
CREATE TABLE "monitoring_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint NOT NULL,
	"plan" text NOT NULL,
	"accounts" integer NOT NULL,
	"ends_at" timestamp with time zone,
	"key_hash" text NOT NULL,
	"key_sealed" text NOT NULL,
	"charge_id" bigint,
	"warned_3d_at" timestamp with time zone,
	"warned_1d_at" timestamp with time zone,
	CONSTRAINT "monitoring_subscriptions_plan_check" CHECK ("monitoring_subscriptions"."plan" in ('free', 'paid')),
	CONSTRAINT "monitoring_subscriptions_accounts_check" CHECK ("monitoring_subscriptions"."accounts" between 1 and 50),
	CONSTRAINT "monitoring_subscriptions_end_check" CHECK (("monitoring_subscriptions"."plan" = 'free') = ("monitoring_subscriptions"."ends_at" is null))
);
--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD CONSTRAINT "monitoring_accounts_subscription_id_monitoring_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."monitoring_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_accounts" ADD CONSTRAINT "monitoring_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_subscriptions" ADD CONSTRAINT "monitoring_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_subscriptions" ADD CONSTRAINT "monitoring_subscriptions_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_accounts_monitoring_id_key" ON "monitoring_accounts" USING btree ("monitoring_id");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_accounts_subscription_login_key" ON "monitoring_accounts" USING btree ("subscription_id","login");--> statement-breakpoint
CREATE INDEX "monitoring_accounts_user_id_idx" ON "monitoring_accounts" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "monitoring_subscriptions_user_id_idx" ON "monitoring_subscriptions" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_subscriptions_key_hash_key" ON "monitoring_subscriptions" USING btree ("key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "monitoring_subscriptions_one_free_key" ON "monitoring_subscriptions" USING btree ("user_id") WHERE "monitoring_subscriptions"."plan" = 'free';--> statement-breakpoint
INSERT INTO "monitoring_period_discounts" ("months", "discount_percent") VALUES (1, 0), (3, 5), (6, 10), (12, 15);--> statement-breakpoint
INSERT INTO "settings" ("key", "value") VALUES ('monitoring_account_month_cents', '300') ON CONFLICT DO NOTHING;
