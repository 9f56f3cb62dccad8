-- Transfers between users and moves from the partner balance to the main balance get their
-- system memos (the contracts' LedgerMemo 'transfer' and 'partner_move'); they were written with
-- no memo at all, so the operator's ledger showed '—' for them. The backfill codes the rows that
-- have neither a code nor a memo, with params from the row the transaction belongs to:
--   transfer      the transfers row: its id and both parties' user ids
--   partner_move  nothing but the code: the same user on both legs (its payments row, method
--                 'balance', holds the amount)
-- A row with a memo (not one these writers made) keeps showing it.
-- The ledger is append-only (0001): its trigger is set aside for these updates only, inside this
-- migration's transaction, which holds the table's lock until it commits.
ALTER TABLE "ledger_transactions" DISABLE TRIGGER "ledger_transactions_append_only";--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = 'transfer',
  "memo_params" = jsonb_build_object('transfer_id', r."id", 'from_user_id', r."from_user_id",
    'to_user_id', r."to_user_id")
FROM "transfers" r
WHERE r."ledger_transaction_id" = t."id" AND t."kind" = 'transfer' AND t."memo_code" IS NULL
  AND t."memo" IS NULL;--> statement-breakpoint
UPDATE "ledger_transactions" SET "memo_code" = 'partner_move', "memo_params" = '{}'::jsonb
WHERE "kind" = 'partner_move' AND "memo_code" IS NULL AND "memo" IS NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ENABLE TRIGGER "ledger_transactions_append_only";
