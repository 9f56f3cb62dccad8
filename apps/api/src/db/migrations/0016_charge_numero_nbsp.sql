-- Russian charge descriptions write '№' and a no-break space before the id, as the console and
-- the API's texts now do (numero()): those written before say 'VPS №12 …' and 'Мониторинг №3 …',
-- so one balance history mixed the two. Only the generated descriptions change (they start so;
-- an operator's correction starts 'Корректировка баланса'), and the ledger's copies of them
-- (0015's charge memos), its append-only trigger set aside for that update only.
UPDATE "charges" SET "description_ru" =
  regexp_replace("description_ru", '^(VPS|Мониторинг) №([0-9])', '\1 №' || chr(160) || '\2')
WHERE "description_ru" ~ '^(VPS|Мониторинг) №[0-9]';--> statement-breakpoint
ALTER TABLE "ledger_transactions" DISABLE TRIGGER "ledger_transactions_append_only";--> statement-breakpoint
UPDATE "ledger_transactions" SET "memo_params" = jsonb_set("memo_params", '{description_ru}',
  to_jsonb(regexp_replace("memo_params"->>'description_ru', '^(VPS|Мониторинг) №([0-9])', '\1 №' || chr(160) || '\2')))
WHERE "memo_code" = 'charge' AND "memo_params"->>'description_ru' ~ '^(VPS|Мониторинг) №[0-9]';--> statement-breakpoint
ALTER TABLE "ledger_transactions" ENABLE TRIGGER "ledger_transactions_append_only";
