-- The English FAQ says 'partner programme', as the console and the legal texts do: the seed of
-- 0009 wrote 'partner program' in two texts. Only a text that still holds the seeded one changes,
-- so an operator's edit is kept.
UPDATE "faq_items" SET "question_en" = $$How does the partner programme work?$$
WHERE "slug" = 'partner-program-how-it-works' AND "question_en" = $$How does the partner program work?$$;
--> statement-breakpoint
UPDATE "faq_items" SET "answer_en" = $$Technical support: servers, connecting over Remote Desktop, MetaTrader on the server, problems with the console.

Billing: top-ups, card, e-wallet and crypto payments, transfers, charges and renewals.

Partnership: the partner programme, rewards, promocodes and withdrawals of partner earnings.

Monitoring: subscriptions, the publisher Expert Advisor, activation keys, alerts and the figures of your accounts.

If you are not sure, choose the closest one: we will answer anyway.$$
WHERE "slug" = 'support-departments' AND "answer_en" = $$Technical support: servers, connecting over Remote Desktop, MetaTrader on the server, problems with the console.

Billing: top-ups, card, e-wallet and crypto payments, transfers, charges and renewals.

Partnership: the partner program, rewards, promocodes and withdrawals of partner earnings.

Monitoring: subscriptions, the publisher Expert Advisor, activation keys, alerts and the figures of your accounts.

If you are not sure, choose the closest one: we will answer anyway.$$;
