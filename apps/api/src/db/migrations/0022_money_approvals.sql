CREATE TABLE "money_approvals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"account" text,
	"reason" text,
	"withdrawal_id" bigint,
	"reference" text,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	"decline_reason" text,
	"ledger_transaction_id" bigint,
	CONSTRAINT "money_approvals_kind_check" CHECK ("money_approvals"."kind" in ('adjustment', 'payout')),
	CONSTRAINT "money_approvals_status_check" CHECK ("money_approvals"."status" in ('pending', 'approved', 'declined')),
	CONSTRAINT "money_approvals_shape_check" CHECK (case "money_approvals"."kind"
        when 'adjustment' then "money_approvals"."account" in ('balance', 'balance_partner')
          and "money_approvals"."reason" is not null and "money_approvals"."amount_cents" <> 0 and "money_approvals"."withdrawal_id" is null
        else "money_approvals"."withdrawal_id" is not null and "money_approvals"."reference" is not null
          and "money_approvals"."amount_cents" > 0 and "money_approvals"."account" is null
        end),
	CONSTRAINT "money_approvals_decision_check" CHECK (("money_approvals"."status" = 'pending') = ("money_approvals"."decided_by" is null and "money_approvals"."decided_at" is null)
        and ("money_approvals"."status" = 'declined') = ("money_approvals"."decline_reason" is not null)
        and ("money_approvals"."ledger_transaction_id" is null or ("money_approvals"."status" = 'approved' and "money_approvals"."kind" = 'adjustment'))),
	CONSTRAINT "money_approvals_four_eyes_check" CHECK ("money_approvals"."requested_by" <> "money_approvals"."user_id" and "money_approvals"."decided_by" is distinct from "money_approvals"."user_id"
        and ("money_approvals"."status" <> 'approved' or "money_approvals"."decided_by" <> "money_approvals"."requested_by"))
);
--> statement-breakpoint
ALTER TABLE "money_approvals" ADD CONSTRAINT "money_approvals_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_approvals" ADD CONSTRAINT "money_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_approvals" ADD CONSTRAINT "money_approvals_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_approvals" ADD CONSTRAINT "money_approvals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_approvals" ADD CONSTRAINT "money_approvals_ledger_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("ledger_transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "money_approvals_pending_idx" ON "money_approvals" USING btree ("created_at") WHERE "money_approvals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "money_approvals_requested_by_idx" ON "money_approvals" USING btree ("requested_by","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "money_approvals_one_pending_payout_key" ON "money_approvals" USING btree ("withdrawal_id") WHERE "money_approvals"."status" = 'pending';