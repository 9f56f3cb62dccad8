-- The ledger's system memos become a code and its params (the contracts' LedgerMemo), which the
-- console puts into the reader's language; `memo` keeps an operator's own text (a correction's
-- reason) and the English text of the rows before this migration.
ALTER TABLE "ledger_transactions" ADD COLUMN "memo_code" text;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD COLUMN "memo_params" jsonb;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_memo_code_check" CHECK (("ledger_transactions"."memo_code" is null and "ledger_transactions"."memo_params" is null)
        or ("ledger_transactions"."memo_code" is not null and jsonb_typeof("ledger_transactions"."memo_params") = 'object'));--> statement-breakpoint
-- Backfill of the old rows. A row gets its code only where its English memo is exactly the text
-- its writer made, and the params come from the row the transaction belongs to, not from the text:
--   topup (card, e-wallet)  "<gateway> <operation>"             the payments row: id, method, gateway, operation
--   topup (crypto)          "crypto <network> <txid>"           the payments row: id, network, TXID
--   charge                  the charge's English description    the charges row: both descriptions
--   withdrawal              "Partner withdrawal (<method>)"     the withdrawals row: method
--   refund of a withdrawal  "Partner withdrawal #<id> cancelled" the withdrawals row it returned
--   reward                  "Partner reward: level <n>, charge #<id>"  the partner_rewards row
--   refund of a VPS charge  "Refund: VPS #<id> could not be created", "Refund: upgrade of VPS #<id>
--                           failed", "Refund: upgrade of VPS #<id> cancelled, the server was
--                           revoked": the server's id, read from the text (no row links a
--                           refund to its charge)
-- Everything else keeps showing its stored memo: operators' corrections (their own text, never
-- coded), transfers and moves from the partner balance (no memo), and any text that does not
-- match. The memo itself is kept on every row.
-- The ledger is append-only (0001): its trigger is set aside for these updates only, inside this
-- migration's transaction, which holds the table's lock until it commits.
ALTER TABLE "ledger_transactions" DISABLE TRIGGER "ledger_transactions_append_only";--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = 'topup_gateway',
  "memo_params" = jsonb_build_object('payment_id', p."id", 'method', p."method",
    'gateway', p."driver", 'operation_id', p."operation_id")
FROM "payments" p
WHERE p."ledger_transaction_id" = t."id" AND t."kind" = 'topup' AND t."memo_code" IS NULL
  AND p."method" IN ('card', 'ewallet') AND t."memo" = p."driver" || ' ' || p."operation_id";--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = 'topup_crypto',
  "memo_params" = jsonb_build_object('payment_id', p."id", 'network', p."network", 'txid', p."txid")
FROM "payments" p
WHERE p."ledger_transaction_id" = t."id" AND t."kind" = 'topup' AND t."memo_code" IS NULL
  AND p."method" = 'crypto' AND t."memo" = 'crypto ' || p."network" || ' ' || p."txid";--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = 'charge',
  "memo_params" = jsonb_build_object('description_en', c."description_en",
    'description_ru', c."description_ru")
FROM "charges" c
WHERE c."ledger_transaction_id" = t."id" AND t."kind" = 'charge' AND t."memo_code" IS NULL
  AND t."memo" = c."description_en";--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = 'partner_withdrawal',
  "memo_params" = jsonb_build_object('method', w."method")
FROM "withdrawals" w
WHERE w."ledger_transaction_id" = t."id" AND t."kind" = 'withdrawal' AND t."memo_code" IS NULL
  AND t."memo" = 'Partner withdrawal (' || w."method" || ')';--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = 'partner_withdrawal_cancelled',
  "memo_params" = jsonb_build_object('withdrawal_id', w."id")
FROM "withdrawals" w
WHERE w."return_transaction_id" = t."id" AND t."kind" = 'refund' AND t."memo_code" IS NULL
  AND t."memo" = 'Partner withdrawal #' || w."id" || ' cancelled';--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = 'partner_reward',
  "memo_params" = jsonb_build_object('level', r."level", 'charge_id', r."charge_id")
FROM "partner_rewards" r
WHERE r."ledger_transaction_id" = t."id" AND t."kind" = 'reward' AND t."memo_code" IS NULL
  AND t."memo" = 'Partner reward: level ' || r."level" || ', charge #' || r."charge_id";--> statement-breakpoint
UPDATE "ledger_transactions" t SET "memo_code" = v."code",
  "memo_params" = jsonb_build_object('server_id', v."server_id")
FROM (
  SELECT l."id", m."code", substring(l."memo" FROM m."pattern")::bigint AS "server_id"
  FROM "ledger_transactions" l
  JOIN (VALUES
    ('vps_create_refund', '^Refund: VPS #([0-9]{1,15}) could not be created$'),
    ('vps_upgrade_refund', '^Refund: upgrade of VPS #([0-9]{1,15}) failed$'),
    ('vps_upgrade_revoked_refund',
      '^Refund: upgrade of VPS #([0-9]{1,15}) cancelled, the server was revoked$')
  ) AS m ("code", "pattern") ON l."memo" ~ m."pattern"
  WHERE l."kind" = 'refund' AND l."memo_code" IS NULL
) v
WHERE v."id" = t."id";--> statement-breakpoint
ALTER TABLE "ledger_transactions" ENABLE TRIGGER "ledger_transactions_append_only";
