ALTER TABLE "payments" DROP CONSTRAINT "payments_crypto_check";--> statement-breakpoint
DROP INDEX "payments_txid_key";--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "pay_amount" numeric(24, 8);--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "chain" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_crypto_open_amount_key" ON "payments" USING btree ("network","amount_cents") WHERE "payments"."method" = 'crypto' and "payments"."status" in ('processing', 'under_review') and "payments"."expires_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_crypto_open_pay_amount_key" ON "payments" USING btree ("network","pay_amount") WHERE "payments"."method" = 'crypto' and "payments"."status" in ('processing', 'under_review') and "payments"."pay_amount" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_txid_key" ON "payments" USING btree (lower(regexp_replace("txid", '^0x', '', 'i'))) WHERE "payments"."status" <> 'rejected';--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_crypto_check" CHECK (("payments"."method" = 'crypto') = ("payments"."network" is not null)
        and ("payments"."txid" is null) = ("payments"."wallet" is null)
        and ("payments"."method" <> 'crypto' or ("payments"."txid" is not null) = ("payments"."status" in ('under_review', 'paid', 'rejected')))
        and ("payments"."method" = 'crypto' or "payments"."txid" is null));