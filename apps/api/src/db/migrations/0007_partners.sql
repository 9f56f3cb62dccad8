CREATE TABLE "partner_clicks" (
	"partner_id" bigint NOT NULL,
	"day" date NOT NULL,
	"visitor" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "partner_clicks_partner_id_day_visitor_pk" PRIMARY KEY("partner_id","day","visitor")
);
--> statement-breakpoint
CREATE TABLE "partner_discount_tiers" (
	"active_referrals" integer PRIMARY KEY NOT NULL,
	"discount_percent" integer NOT NULL,
	CONSTRAINT "partner_discount_tiers_from_check" CHECK ("partner_discount_tiers"."active_referrals" >= 0),
	CONSTRAINT "partner_discount_tiers_percent_check" CHECK ("partner_discount_tiers"."discount_percent" between 1 and 90)
);
--> statement-breakpoint
CREATE TABLE "partner_levels" (
	"partner_id" bigint NOT NULL,
	"level" smallint NOT NULL,
	"users" integer DEFAULT 0 NOT NULL,
	"rewards" integer DEFAULT 0 NOT NULL,
	"turnover_cents" bigint DEFAULT 0 NOT NULL,
	"reward_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "partner_levels_partner_id_level_pk" PRIMARY KEY("partner_id","level"),
	CONSTRAINT "partner_levels_level_check" CHECK ("partner_levels"."level" between 1 and 3),
	CONSTRAINT "partner_levels_totals_check" CHECK ("partner_levels"."users" >= 0 and "partner_levels"."rewards" >= 0 and "partner_levels"."turnover_cents" >= 0 and "partner_levels"."reward_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "partner_reward_levels" (
	"level" smallint PRIMARY KEY NOT NULL,
	"percent_bp" integer NOT NULL,
	CONSTRAINT "partner_reward_levels_level_check" CHECK ("partner_reward_levels"."level" between 1 and 3),
	CONSTRAINT "partner_reward_levels_percent_check" CHECK ("partner_reward_levels"."percent_bp" between 0 and 5000)
);
--> statement-breakpoint
CREATE TABLE "partner_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"partner_id" bigint NOT NULL,
	"referral_id" bigint NOT NULL,
	"level" smallint NOT NULL,
	"charge_id" bigint NOT NULL,
	"base_cents" bigint NOT NULL,
	"percent_bp" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"settled_at" timestamp with time zone,
	"ledger_transaction_id" bigint,
	CONSTRAINT "partner_rewards_level_check" CHECK ("partner_rewards"."level" between 1 and 3),
	CONSTRAINT "partner_rewards_amount_check" CHECK ("partner_rewards"."amount_cents" > 0),
	CONSTRAINT "partner_rewards_not_self_check" CHECK ("partner_rewards"."partner_id" <> "partner_rewards"."referral_id"),
	CONSTRAINT "partner_rewards_status_check" CHECK ("partner_rewards"."status" in ('pending', 'available', 'cancelled')),
	CONSTRAINT "partner_rewards_ledger_check" CHECK (("partner_rewards"."status" = 'available') = ("partner_rewards"."ledger_transaction_id" is not null))
);
--> statement-breakpoint
-- earlier visits stay counted, each as its own visitor: no address is kept
INSERT INTO "partner_clicks" ("partner_id", "day", "visitor", "created_at")
SELECT "partner_id", ("created_at" AT TIME ZONE 'UTC')::date, 'before-' || "id", "created_at" FROM "referral_clicks";--> statement-breakpoint
ALTER TABLE "referral_clicks" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "referral_clicks" CASCADE;--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_account_check";--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_status_check";--> statement-breakpoint
DROP INDEX "users_referrer_id_idx";--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "status" SET DEFAULT 'received';--> statement-breakpoint
ALTER TABLE "withdrawals" ALTER COLUMN "ledger_transaction_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "referrer2_id" bigint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "referrer3_id" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "due_at" timestamp with time zone NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "processed_by" bigint;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "payout_reference" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "return_transaction_id" bigint;--> statement-breakpoint
ALTER TABLE "promocodes" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "partner_clicks" ADD CONSTRAINT "partner_clicks_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_levels" ADD CONSTRAINT "partner_levels_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_rewards" ADD CONSTRAINT "partner_rewards_partner_id_users_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_rewards" ADD CONSTRAINT "partner_rewards_referral_id_users_id_fk" FOREIGN KEY ("referral_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_rewards" ADD CONSTRAINT "partner_rewards_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_rewards" ADD CONSTRAINT "partner_rewards_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_rewards_charge_level_key" ON "partner_rewards" USING btree ("charge_id","level");--> statement-breakpoint
CREATE INDEX "partner_rewards_partner_created_idx" ON "partner_rewards" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE INDEX "partner_rewards_partner_referral_idx" ON "partner_rewards" USING btree ("partner_id","referral_id");--> statement-breakpoint
CREATE INDEX "partner_rewards_pending_idx" ON "partner_rewards" USING btree ("created_at") WHERE "partner_rewards"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "partner_rewards_partner_pending_idx" ON "partner_rewards" USING btree ("partner_id") WHERE "partner_rewards"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referrer2_id_users_id_fk" FOREIGN KEY ("referrer2_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referrer3_id_users_id_fk" FOREIGN KEY ("referrer3_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_processed_by_users_id_fk" FOREIGN KEY ("processed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_return_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("return_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_referrer2_id_idx" ON "users" USING btree ("referrer2_id","id");--> statement-breakpoint
CREATE INDEX "users_referrer3_id_idx" ON "users" USING btree ("referrer3_id","id");--> statement-breakpoint
CREATE INDEX "withdrawals_open_idx" ON "withdrawals" USING btree ("created_at") WHERE "withdrawals"."status" in ('received', 'under_review');--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_one_open_key" ON "withdrawals" USING btree ("user_id") WHERE "withdrawals"."status" in ('received', 'under_review');--> statement-breakpoint
CREATE INDEX "promocodes_owner_idx" ON "promocodes" USING btree ("owner_user_id","id");--> statement-breakpoint
CREATE INDEX "users_referrer_id_idx" ON "users" USING btree ("referrer_id","id");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_referrer_not_self_check" CHECK ("users"."referrer_id" <> "users"."id" and "users"."referrer2_id" <> "users"."id" and "users"."referrer3_id" <> "users"."id");--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_account_check" CHECK (("ledger_entries"."user_id" is not null and "ledger_entries"."account" in ('balance', 'balance_partner'))
        or ("ledger_entries"."user_id" is null and "ledger_entries"."account" ~ '^(gateway|crypto|adjustments|revenue|payouts|partner_rewards)(:[A-Za-z0-9-]+)?$'));--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('topup', 'transfer', 'charge', 'withdrawal', 'adjustment', 'partner_move', 'refund', 'reward'));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_outcome_check" CHECK (("withdrawals"."status" = 'paid_out') = ("withdrawals"."payout_reference" is not null)
        and ("withdrawals"."status" = 'cancelled') = ("withdrawals"."reason" is not null and "withdrawals"."return_transaction_id" is not null));--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_status_check" CHECK ("withdrawals"."status" in ('received', 'under_review', 'paid_out', 'cancelled'));--> statement-breakpoint
-- levels 2 and 3 of the referrers already there, and each partner's referrals per level
UPDATE "users" u SET "referrer2_id" = r."referrer_id" FROM "users" r WHERE u."referrer_id" = r."id" AND r."referrer_id" IS NOT NULL;--> statement-breakpoint
UPDATE "users" u SET "referrer3_id" = r."referrer2_id" FROM "users" r WHERE u."referrer_id" = r."id" AND r."referrer2_id" IS NOT NULL;--> statement-breakpoint
INSERT INTO "partner_levels" ("partner_id", "level", "users")
SELECT "referrer_id", 1, count(*) FROM "users" WHERE "referrer_id" IS NOT NULL GROUP BY 1
UNION ALL SELECT "referrer2_id", 2, count(*) FROM "users" WHERE "referrer2_id" IS NOT NULL GROUP BY 1
UNION ALL SELECT "referrer3_id", 3, count(*) FROM "users" WHERE "referrer3_id" IS NOT NULL GROUP BY 1;--> statement-breakpoint
-- the seed percentages (10 %, 5 %, 2 %) and promocode discount tiers (5 % from 0 active referrals, 10 % from 5, 15 % from 20)
INSERT INTO "partner_reward_levels" ("level", "percent_bp") VALUES (1, 1000), (2, 500), (3, 200);--> statement-breakpoint
INSERT INTO "partner_discount_tiers" ("active_referrals", "discount_percent") VALUES (0, 5), (5, 10), (20, 15);
