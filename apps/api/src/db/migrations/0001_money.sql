CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" bigint,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text,
	"target_user_id" bigint,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charges" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"description_en" text NOT NULL,
	"description_ru" text NOT NULL,
	"status" text DEFAULT 'paid' NOT NULL,
	"ledger_transaction_id" bigint NOT NULL,
	CONSTRAINT "charges_amount_check" CHECK ("charges"."amount_cents" > 0),
	CONSTRAINT "charges_status_check" CHECK ("charges"."status" in ('paid', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" bigint NOT NULL,
	"key" text NOT NULL,
	"scope" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"transaction_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint,
	"account" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"balance_after_cents" bigint,
	CONSTRAINT "ledger_entries_amount_check" CHECK ("ledger_entries"."amount_cents" <> 0),
	CONSTRAINT "ledger_entries_account_check" CHECK (("ledger_entries"."user_id" is not null and "ledger_entries"."account" in ('balance', 'balance_partner'))
        or ("ledger_entries"."user_id" is null and "ledger_entries"."account" ~ '^(gateway|crypto|adjustments|revenue|payouts)(:[A-Za-z0-9-]+)?$'))
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"actor_id" bigint,
	"memo" text,
	CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('topup', 'transfer', 'charge', 'withdrawal', 'adjustment', 'partner_move'))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint NOT NULL,
	"method" text NOT NULL,
	"driver" text,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"status" text NOT NULL,
	"network" text,
	"wallet" text,
	"txid" text,
	"reason" text,
	"operation_id" text,
	"paid_at" timestamp with time zone,
	"reviewed_by" bigint,
	"reviewed_at" timestamp with time zone,
	"ledger_transaction_id" bigint,
	CONSTRAINT "payments_amount_check" CHECK ("payments"."amount_cents" > 0),
	CONSTRAINT "payments_method_check" CHECK ("payments"."method" in ('card', 'ewallet', 'crypto', 'balance', 'adjustment')),
	CONSTRAINT "payments_status_check" CHECK ("payments"."status" in ('processing', 'paid', 'not_paid', 'under_review', 'rejected')),
	CONSTRAINT "payments_crypto_check" CHECK (("payments"."method" = 'crypto') = ("payments"."txid" is not null and "payments"."network" is not null and "payments"."wallet" is not null)),
	CONSTRAINT "payments_paid_check" CHECK (("payments"."status" = 'paid') = ("payments"."ledger_transaction_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"from_user_id" bigint NOT NULL,
	"to_user_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"ledger_transaction_id" bigint NOT NULL,
	CONSTRAINT "transfers_amount_check" CHECK ("transfers"."amount_cents" > 0),
	CONSTRAINT "transfers_not_self_check" CHECK ("transfers"."from_user_id" <> "transfers"."to_user_id")
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"method" text NOT NULL,
	"wallet" text NOT NULL,
	"status" text DEFAULT 'under_review' NOT NULL,
	"processed_at" timestamp with time zone,
	"ledger_transaction_id" bigint,
	CONSTRAINT "withdrawals_amount_check" CHECK ("withdrawals"."amount_cents" > 0),
	CONSTRAINT "withdrawals_status_check" CHECK ("withdrawals"."status" in ('under_review', 'paid_out', 'cancelled', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges" ADD CONSTRAINT "charges_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_at_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target_user_id_idx" ON "audit_log" USING btree ("target_user_id");--> statement-breakpoint
CREATE INDEX "charges_user_id_created_at_idx" ON "charges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_id_idx" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_user_id_idx" ON "ledger_entries" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" USING btree ("account");--> statement-breakpoint
CREATE INDEX "payments_user_id_created_at_idx" ON "payments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_txid_key" ON "payments" USING btree (lower(regexp_replace("txid", '^0x', '', 'i')));--> statement-breakpoint
CREATE INDEX "transfers_from_idx" ON "transfers" USING btree ("from_user_id","created_at");--> statement-breakpoint
CREATE INDEX "transfers_to_idx" ON "transfers" USING btree ("to_user_id","created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_user_id_created_at_idx" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
-- A user's purse changes only through a ledger entry, in the entry's own statement: the entry
-- moves users.balance_cents / balance_partner_cents (whose checks refuse a negative balance)
-- and records the balance after it.
CREATE FUNCTION "ledger_apply_entry"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.user_id IS NULL THEN
    NEW.balance_after_cents := NULL;
    RETURN NEW;
  END IF;
  IF NEW.account = 'balance' THEN
    UPDATE users SET balance_cents = balance_cents + NEW.amount_cents
      WHERE id = NEW.user_id RETURNING balance_cents INTO NEW.balance_after_cents;
  ELSE
    UPDATE users SET balance_partner_cents = balance_partner_cents + NEW.amount_cents
      WHERE id = NEW.user_id RETURNING balance_partner_cents INTO NEW.balance_after_cents;
  END IF;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ledger entry for unknown user %', NEW.user_id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_apply" BEFORE INSERT ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_apply_entry"();
--> statement-breakpoint
-- Every ledger transaction balances (its entries sum to zero) and has at least two entries,
-- checked at commit so the entries can be written one by one.
CREATE FUNCTION "ledger_assert_balanced"(tx bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  total numeric;
  entries bigint;
BEGIN
  SELECT coalesce(sum(amount_cents), 0), count(*) INTO total, entries
    FROM ledger_entries WHERE transaction_id = tx;
  IF total <> 0 OR entries < 2 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %, % entries)', tx, total, entries
      USING ERRCODE = 'check_violation';
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION "ledger_entry_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_assert_balanced(NEW.transaction_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "ledger_transaction_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_assert_balanced(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_entry_balanced"();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "ledger_transactions_balanced" AFTER INSERT ON "ledger_transactions"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "ledger_transaction_balanced"();
--> statement-breakpoint
-- The ledger is append-only: a correction is a new transaction.
CREATE FUNCTION "ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_append_only" BEFORE UPDATE OR DELETE ON "ledger_transactions"
  FOR EACH ROW EXECUTE FUNCTION "ledger_append_only"();
--> statement-breakpoint
CREATE TRIGGER "ledger_transactions_no_truncate" BEFORE TRUNCATE ON "ledger_transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "ledger_append_only"();
--> statement-breakpoint
-- The balance columns belong to the ledger: a new user starts at zero, and an UPDATE that
-- changes them is refused unless it comes from ledger_apply_entry (one trigger level down).
CREATE FUNCTION "users_balance_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.balance_cents <> 0 OR NEW.balance_partner_cents <> 0 THEN
      RAISE EXCEPTION 'a new user starts with zero balances' USING ERRCODE = 'check_violation';
    END IF;
  ELSIF (NEW.balance_cents <> OLD.balance_cents OR NEW.balance_partner_cents <> OLD.balance_partner_cents)
      AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'balances change only through ledger entries' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "users_balance_guard" BEFORE INSERT OR UPDATE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "users_balance_guard"();
