CREATE TABLE "faq_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"group" text NOT NULL,
	"slug" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"question_en" text NOT NULL,
	"answer_en" text NOT NULL,
	"question_ru" text NOT NULL,
	"answer_ru" text NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "faq_items_group_check" CHECK ("faq_items"."group" in ('partners', 'support', 'monitoring', 'monitoring_guide')),
	CONSTRAINT "faq_items_slug_check" CHECK ("faq_items"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);
--> statement-breakpoint
CREATE TABLE "support_attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" bigint NOT NULL,
	"message_id" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"preview_key" text,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"width" integer,
	"height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_attachments_type_check" CHECK ("support_attachments"."content_type" in ('image/jpeg', 'image/png', 'image/gif', 'application/pdf')),
	CONSTRAINT "support_attachments_size_check" CHECK ("support_attachments"."size_bytes" between 1 and 5242880)
);
--> statement-breakpoint
CREATE TABLE "support_canned_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body_en" text NOT NULL,
	"body_ru" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_department_operators" (
	"department_id" integer NOT NULL,
	"user_id" bigint NOT NULL,
	CONSTRAINT "support_department_operators_department_id_user_id_pk" PRIMARY KEY("department_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "support_departments" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text,
	"name_en" text NOT NULL,
	"name_ru" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"ticket_id" bigint NOT NULL,
	"author_id" bigint,
	"author_kind" text NOT NULL,
	"kind" text DEFAULT 'message' NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_messages_author_kind_check" CHECK ("support_messages"."author_kind" in ('user', 'staff')),
	CONSTRAINT "support_messages_kind_check" CHECK ("support_messages"."kind" in ('message', 'note', 'event')),
	CONSTRAINT "support_messages_body_check" CHECK (char_length("support_messages"."body") <= 8000 and ("support_messages"."author_kind" <> 'user' or char_length("support_messages"."body") <= 1024)),
	CONSTRAINT "support_messages_user_kind_check" CHECK ("support_messages"."author_kind" = 'staff' or "support_messages"."kind" = 'message')
);
--> statement-breakpoint
CREATE TABLE "support_tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"department_id" integer NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"assignee_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"waiting_since" timestamp with time zone,
	"staff_updated_at" timestamp with time zone,
	"user_read_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "support_tickets_status_check" CHECK ("support_tickets"."status" in ('new', 'processing', 'closed')),
	CONSTRAINT "support_tickets_title_check" CHECK (char_length("support_tickets"."title") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_message_id_support_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."support_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_department_operators" ADD CONSTRAINT "support_department_operators_department_id_support_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."support_departments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_department_operators" ADD CONSTRAINT "support_department_operators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_department_id_support_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."support_departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "faq_items_slug_key" ON "faq_items" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "faq_items_group_idx" ON "faq_items" USING btree ("group","position");--> statement-breakpoint
CREATE UNIQUE INDEX "support_attachments_storage_key_key" ON "support_attachments" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "support_attachments_message_idx" ON "support_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "support_attachments_ticket_idx" ON "support_attachments" USING btree ("ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "support_departments_code_key" ON "support_departments" USING btree ("code");--> statement-breakpoint
CREATE INDEX "support_messages_ticket_idx" ON "support_messages" USING btree ("ticket_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "support_tickets_one_open_key" ON "support_tickets" USING btree ("user_id","department_id") WHERE "support_tickets"."status" <> 'closed';--> statement-breakpoint
CREATE INDEX "support_tickets_user_idx" ON "support_tickets" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "support_tickets_queue_idx" ON "support_tickets" USING btree ("department_id","status","waiting_since");--> statement-breakpoint
INSERT INTO "support_departments" ("code", "name_en", "name_ru", "position") VALUES
  ('technical', 'Technical support', 'Техническая поддержка', 1),
  ('billing', 'Billing', 'Оплата и счета', 2),
  ('partnership', 'Partnership', 'Партнёрская программа', 3),
  ('monitoring', 'Monitoring', 'Мониторинг', 4);
--> statement-breakpoint
-- the FAQ's questions (SPEC: partners, support, monitoring, monitoring guide), in both languages; operators edit them
INSERT INTO "faq_items" ("group", "slug", "position", "question_en", "answer_en", "question_ru", "answer_ru") VALUES
  ('partners', 'partner-program-how-it-works', 10,
   $$How does the partner program work?$$,
   $$Every TradeHost user is a partner: there is nothing to apply for. Share your partner link or code, and everyone who signs up with it becomes your referral.

When your referrals pay for services (a server order, a renewal, an upgrade or a monitoring subscription), you receive a reward: 10 % of what your own referrals pay (level 1), 5 % of what their referrals pay (level 2) and 2 % from the level below (level 3). Rewards keep coming for as long as your referrals remain clients.

Your link, code and QR code, your results, levels and network are on the Partners page.$$,
   $$Как работает партнёрская программа?$$,
   $$Партнёром TradeHost может стать любой пользователь, заявку подавать не нужно. Поделитесь партнёрской ссылкой или кодом: каждый, кто зарегистрируется по ним, станет вашим рефералом.

Когда ваши рефералы оплачивают услуги (заказ сервера, продление, улучшение или подписку на мониторинг), вы получаете партнёрское вознаграждение: 10 % от оплат ваших рефералов (1-й уровень), 5 % от оплат их рефералов (2-й уровень) и 2 % от оплат третьего уровня. Вознаграждение начисляется всё время, пока рефералы остаются клиентами.

Ссылка, код и QR-код, результаты, уровни и сеть — на странице «Партнёрам».$$),
  ('partners', 'partner-link-and-code', 20,
   $$Where do I find my partner link and code, and how do people sign up with them?$$,
   $$Open Partners, the Statistics tab: your partner link, your code and a QR code of the link are at the top, with buttons to copy them.

Whoever opens your link lands on the registration page with your code already filled in. A code can also be typed into the "Partner code" field when signing up. The partner is fixed once, at registration, and cannot be changed later.

A user who signed up without any code also becomes your referral if their first paid server order uses one of your promocodes.$$,
   $$Где найти партнёрскую ссылку и код и как по ним зарегистрироваться?$$,
   $$Откройте «Партнёрам», вкладку «Статистика»: вверху — ваша партнёрская ссылка, код и QR-код ссылки, рядом кнопки для копирования.

Кто откроет вашу ссылку, попадёт на страницу регистрации, где ваш код уже подставлен. Код можно ввести и вручную в поле «Код партнёра» при регистрации. Партнёр закрепляется один раз, при регистрации, и потом не меняется.

Если пользователь зарегистрировался без кода, он тоже станет вашим рефералом, когда применит ваш промокод в первом оплаченном заказе сервера.$$),
  ('partners', 'partner-reward-levels', 30,
   $$How much do I earn, and from which payments?$$,
   $$A reward is a share of what your referrals actually pay for services: 10 % on level 1 (people who signed up with your link or code), 5 % on level 2 (their referrals) and 2 % on level 3 (the referrals of level 2).

Rewards are counted on server orders, renewals (auto-renewals included), upgrades, and paid monitoring subscriptions with their extensions and added accounts. Top-ups and transfers are not payments for services, so they bring no reward. Amounts are counted in whole cents, rounded down.

Example: a level-1 referral renews a server at $22 a month for 3 months and, with the 5 % discount, pays $62.70; you receive $6.27.

The provider may change the percentages; a reward already granted keeps the percentage of its time. The current ones are in the Levels table on the Partners page.$$,
   $$Сколько я заработаю и с каких платежей?$$,
   $$Вознаграждение — это доля от того, что ваши рефералы реально платят за услуги: 10 % на 1-м уровне (те, кто зарегистрировался по вашей ссылке или коду), 5 % на 2-м уровне (их рефералы) и 2 % на 3-м уровне (рефералы второго уровня).

Вознаграждение начисляется за заказ сервера, продление (в том числе автопродление), улучшение, платную подписку на мониторинг, её продление и добавление счетов. Пополнение баланса и переводы — не оплата услуг, за них вознаграждения нет. Суммы считаются в целых центах с округлением вниз.

Пример: реферал 1-го уровня продлевает сервер за $22 в месяц на 3 месяца и со скидкой 5 % платит $62,70 — вы получаете $6,27.

Провайдер может изменить проценты; уже начисленное вознаграждение сохраняет процент своего времени. Текущие проценты — в таблице «Уровни» на странице «Партнёрам».$$),
  ('partners', 'partner-reward-hold-14-days', 40,
   $$When does a reward reach my partner balance? What does "pending" mean?$$,
   $$A new reward stays pending for 14 days. The hold protects against refunds: if the payment it came from is refunded during those 14 days (for example, a server that could not be created), the reward is cancelled.

After the hold the reward moves to your partner balance automatically; from there you can withdraw it or move it to your main balance. The Partners page shows both amounts: the partner balance and the rewards still pending.$$,
   $$Когда вознаграждение попадает на партнёрский баланс? Что значит «в ожидании»?$$,
   $$Новое вознаграждение 14 дней находится в ожидании. Эта задержка защищает от возвратов: если платёж, с которого оно начислено, за эти 14 дней вернули (например, сервер не удалось создать), вознаграждение отменяется.

После 14 дней вознаграждение автоматически зачисляется на партнёрский баланс; оттуда его можно вывести или перевести на основной баланс. На странице «Партнёрам» видны обе суммы: партнёрский баланс и вознаграждения в ожидании.$$),
  ('partners', 'partner-withdrawal-methods-minimums', 50,
   $$How do I withdraw my partner earnings, and what are the minimums?$$,
   $$Open Partners, the Withdrawal tab. Choose a method, enter your wallet and the amount, and confirm. The methods and their minimum amounts: USDT on the TRC-20 network from $20, Bitcoin (BTC) from $50, Payeer from $10.

The amount is taken from your partner balance as soon as the request is sent, so it cannot be spent twice. Check the wallet carefully: a USDT TRC-20 address starts with T, a Bitcoin address with bc1, 1 or 3, and a Payeer account looks like P1000000. Money sent to a wrong address cannot be returned.

Only the partner balance can be withdrawn; money on the main balance is for paying for services.$$,
   $$Как вывести партнёрские средства и какие минимальные суммы?$$,
   $$Откройте «Партнёрам», вкладку «Вывод». Выберите способ вывода, укажите кошелёк и сумму и подтвердите. Способы и минимальные суммы вывода: USDT в сети TRC-20 — от $20, Bitcoin (BTC) — от $50, Payeer — от $10.

Сумма списывается с партнёрского баланса сразу при создании заявки, поэтому потратить её дважды нельзя. Внимательно проверьте кошелёк: адрес USDT TRC-20 начинается с T, адрес Bitcoin — с bc1, 1 или 3, а счёт Payeer выглядит как P1000000. Средства, отправленные на неверный адрес, вернуть нельзя.

Выводить можно только партнёрский баланс; деньги на основном балансе предназначены для оплаты услуг.$$),
  ('partners', 'partner-withdrawal-processing-time', 60,
   $$How long does a withdrawal take? Can I send a second request?$$,
   $$A withdrawal is processed within 5 working days. Its status goes from Received to Under review and then Paid out; you get an e-mail at each step (and a Telegram message if the chat-bot is linked), with the payment reference once it is paid out.

Only one request can be open at a time: a new one is possible after the previous one is processed. If a request is cancelled, the message gives the reason and the whole amount returns to your partner balance.$$,
   $$Сколько времени занимает вывод средств? Можно ли отправить вторую заявку?$$,
   $$Заявка на вывод средств обрабатывается в течение 5 рабочих дней. Её статус меняется с «Получена» на «На проверке», а затем на «Выплачена»; на каждом шаге приходит письмо (и сообщение в Telegram, если чат-бот привязан), а после выплаты — номер платежа.

Открытой может быть только одна заявка: новую можно создать, когда предыдущая обработана. Если заявку отменили, в письме будет причина, а вся сумма вернётся на партнёрский баланс.$$),
  ('partners', 'partner-balance-to-main-balance', 70,
   $$Can I pay for servers with my partner balance?$$,
   $$Yes. Move the money to your main balance first: Balance operations, Top up, the "Account balance" method (from $1). The move is instant and free of charge, and then you pay for servers and monitoring from the main balance as usual.

The move works one way only: the main balance cannot be moved back to the partner balance.$$,
   $$Можно ли оплатить сервер с партнёрского баланса?$$,
   $$Да. Сначала переведите деньги на основной баланс: «Операции с балансом», «Пополнение», способ «Баланс аккаунта» (от $1). Перевод мгновенный и без комиссии, после него оплачивайте серверы и мониторинг с основного баланса как обычно.

Перевод работает только в одну сторону: вернуть деньги с основного баланса на партнёрский нельзя.$$),
  ('partners', 'partner-promocodes-discount-tiers', 80,
   $$What are partner promocodes, and what discount can I give?$$,
   $$A promocode lets you offer your audience a discount on a 1-month server rental. Create one on Partners, the Promocodes tab: a name of 3 to 32 letters and digits, unique across TradeHost, and one of the discounts your tier allows. You can keep up to 20 promocodes; a deleted one stops working at once.

The discount depends on your active first-level referrals: 5 % from the start, 10 % from 5 active referrals and 15 % from 20. An active referral is one with an active paid server or a running paid monitoring subscription. The tab shows your tier and how many active referrals the next one needs.

The buyer gets the discount and you still receive your reward on what they pay; a buyer with no partner yet becomes your referral with their first paid order. Your own promocodes cannot be used by you.$$,
   $$Что такое партнёрские промокоды и какую скидку я могу дать?$$,
   $$Промокод позволяет дать вашей аудитории скидку на аренду сервера на 1 месяц. Создайте его на странице «Партнёрам», вкладка «Промокоды»: название из 3–32 латинских букв и цифр, уникальное во всём TradeHost, и одна из скидок, доступных на вашем уровне. Промокодов может быть до 20; удалённый промокод сразу перестаёт действовать.

Размер скидки зависит от числа активных рефералов первого уровня: 5 % с самого начала, 10 % от 5 активных рефералов и 15 % от 20. Активный реферал — тот, у кого есть активный платный сервер или действующая платная подписка на мониторинг. На вкладке показаны ваш уровень и сколько активных рефералов нужно для следующего.

Покупатель получает скидку, а вы — обычное вознаграждение с его оплаты; покупатель без партнёра становится вашим рефералом после первого оплаченного заказа. Воспользоваться собственным промокодом нельзя.$$),
  ('partners', 'partner-statistics-and-network', 90,
   $$What do the partner statistics and the network show?$$,
   $$Statistics shows, for the period you choose, the clicks on your link, registrations, paying clients and rewards by day (by week or month over a long period), and the Levels table: each level's percentage, clients, turnover and rewards.

A click is counted once per visitor a day, and not while you yourself are signed in, so reloads do not inflate it. Visitors' addresses are never stored.

Network lists your referrals on all three levels with their activity. E-mail addresses are partly masked to protect their privacy. You can search the network and open each referral's own referrals.$$,
   $$Что показывают партнёрская статистика и сеть?$$,
   $$«Статистика» показывает за выбранный период переходы по вашей ссылке, регистрации, платящих клиентов и вознаграждения по дням (за длинный период — по неделям или месяцам), а также таблицу «Уровни»: процент, число клиентов, оборот и вознаграждения каждого уровня.

Переход засчитывается один раз в день на посетителя и не засчитывается, если вы сами при этом вошли в аккаунт, поэтому обновления страницы статистику не накручивают. Адреса посетителей не сохраняются.

«Сеть» — это ваши рефералы на всех трёх уровнях с их активностью. Адреса электронной почты частично скрыты, чтобы защитить личные данные рефералов. В сети есть поиск, и у каждого реферала можно открыть его собственных рефералов.$$),
  ('partners', 'partner-no-reward-for-top-up', 100,
   $$My referral topped up their balance, but I got no reward. Why?$$,
   $$Rewards come from payments for services, not from deposits. A top-up is only money on the referral's balance; the reward appears when they spend it on a server, a renewal, an upgrade or a monitoring subscription, and it then stays pending for 14 days.

Also check that the person really is your referral (Partners, Network). The partner is fixed at registration: someone who signed up with another partner's code is not yours, and someone who signed up without a code becomes yours only if their first paid order uses your promocode.$$,
   $$Реферал пополнил баланс, а вознаграждения нет. Почему?$$,
   $$Вознаграждение начисляется с оплаты услуг, а не с пополнения. Пополнение — это лишь деньги на балансе реферала; вознаграждение появится, когда он оплатит сервер, продление, улучшение или подписку на мониторинг, и затем 14 дней будет в ожидании.

Проверьте также, что человек действительно ваш реферал («Партнёрам», «Сеть»). Партнёр закрепляется при регистрации: кто зарегистрировался с кодом другого партнёра — не ваш реферал, а кто зарегистрировался без кода, станет вашим, только если применит ваш промокод в первом оплаченном заказе.$$);
--> statement-breakpoint
INSERT INTO "faq_items" ("group", "slug", "position", "question_en", "answer_en", "question_ru", "answer_ru") VALUES
  ('support', 'support-how-to-contact', 10,
   $$How do I contact support?$$,
   $$Open Support in the menu and create a ticket: choose a department, write a subject and your message, attach screenshots if they help, and send it. The whole conversation stays on the ticket's page, and you can add messages to it at any time.

Before writing, try the search at the top of this page: many answers are already here. If you do not find one, "Write to support" under the answers opens a new ticket in the department that knows the topic.$$,
   $$Как связаться со службой поддержки?$$,
   $$Откройте в меню «Поддержка» и создайте обращение: выберите отдел, напишите тему и сообщение, при необходимости приложите скриншоты и отправьте. Вся переписка хранится на странице обращения, и вы можете дописывать в него в любой момент.

Прежде чем писать, попробуйте поиск вверху этой страницы: многие ответы уже здесь. Если ответа не нашлось, «Написать в поддержку» под ответами откроет новое обращение в отдел, который занимается этой темой.$$),
  ('support', 'support-departments', 20,
   $$Which department should I choose for my ticket?$$,
   $$Technical support: servers, connecting over Remote Desktop, MetaTrader on the server, problems with the console.

Billing: top-ups, card, e-wallet and crypto payments, transfers, charges and renewals.

Partnership: the partner program, rewards, promocodes and withdrawals of partner earnings.

Monitoring: subscriptions, the publisher Expert Advisor, activation keys, alerts and the figures of your accounts.

If you are not sure, choose the closest one: we will answer anyway.$$,
   $$Какой отдел выбрать для обращения?$$,
   $$Техническая поддержка: серверы, подключение по удалённому рабочему столу, MetaTrader на сервере, ошибки в личном кабинете.

Оплата и счета: пополнение баланса, оплата картой, электронным кошельком и криптовалютой, переводы, списания и продления.

Партнёрская программа: вознаграждения, промокоды и вывод партнёрских средств.

Мониторинг: подписки, советник-публикатор, ключи активации, оповещения и показатели ваших счетов.

Если сомневаетесь, выберите самый близкий отдел — мы ответим в любом случае.$$),
  ('support', 'support-one-open-ticket-per-department', 30,
   $$Why can't I open a second ticket in the same department?$$,
   $$You can have one open ticket per department, so a question and all its details stay in one conversation and nothing gets lost between tickets. If a ticket of that department is New or Processing, the console shows a link to it: add your new question there.

Tickets in different departments can be open at the same time. Once a ticket is closed, you can open a new one in its department.$$,
   $$Почему нельзя открыть второе обращение в тот же отдел?$$,
   $$В каждом отделе у вас может быть одно открытое обращение: так вопрос и все подробности остаются в одной переписке и ничего не теряется между обращениями. Если в этом отделе уже есть обращение со статусом «Новый» или «В работе», кабинет покажет ссылку на него — допишите новый вопрос туда.

Обращения в разные отделы могут быть открыты одновременно. Когда обращение закрыто, в этот отдел можно создать новое.$$),
  ('support', 'support-ticket-statuses', 40,
   $$What do the ticket statuses mean?$$,
   $$New: the ticket has just been opened or resumed and waits for support to take it up.

Processing: support has answered and is working on your question.

Closed: the question is settled. You or support can close a ticket.

Tickets with answers you have not read yet are marked in the list, and the ticket's page shows new messages by itself while it is open. You also get an e-mail about each answer and status change, in your language.$$,
   $$Что означают статусы обращения?$$,
   $$«Новый» — обращение только что создано или возобновлено и ждёт, когда его возьмёт поддержка.

«В работе» — поддержка ответила и занимается вашим вопросом.

«Закрыт» — вопрос решён. Закрыть обращение можете вы или поддержка.

Обращения с непрочитанными ответами отмечены в списке, а открытая страница обращения показывает новые сообщения сама, без перезагрузки. О каждом ответе и смене статуса также приходит письмо на вашем языке.$$),
  ('support', 'support-resume-closed-ticket', 50,
   $$Can I reopen a closed ticket?$$,
   $$Yes: just write a new message in it. The ticket is resumed with the status New and returns to the support queue with its whole history, so there is no need to explain everything again.

This works while you have no other open ticket in the same department; otherwise the console links to the open one.$$,
   $$Можно ли возобновить закрытое обращение?$$,
   $$Да, просто напишите в нём новое сообщение. Обращение возобновится со статусом «Новый» и вернётся в очередь поддержки со всей историей, так что объяснять всё заново не придётся.

Это возможно, пока в том же отделе нет другого открытого обращения; иначе кабинет покажет ссылку на открытое.$$),
  ('support', 'support-attachments', 60,
   $$Which files can I attach to a ticket?$$,
   $$Images in JPEG, PNG or GIF format and PDF documents, up to 5 MB each and up to 5 files per message. Files are checked by their content, not by their name, so a file of another type renamed to .png or .pdf is refused.

Only you and the support staff can open your attachments. Do not put passwords or your activation key into messages or screenshots.$$,
   $$Какие файлы можно прикрепить к обращению?$$,
   $$Изображения в форматах JPEG, PNG или GIF и документы PDF, до 5 МБ каждый и не больше 5 файлов в одном сообщении. Файлы проверяются по содержимому, а не по имени, поэтому файл другого типа, переименованный в .png или .pdf, прикрепить не получится.

Ваши вложения можете открыть только вы и сотрудники поддержки. Не указывайте пароли и ключ активации в сообщениях и на скриншотах.$$),
  ('support', 'support-message-length', 70,
   $$How long can a message be?$$,
   $$Up to 1024 characters. Russian and English letters, digits, spaces and punctuation each count as one character, and the form shows how many are left.

For a long log or report, attach it as a PDF or a screenshot instead of pasting it into the message.$$,
   $$Какой длины может быть сообщение?$$,
   $$До 1024 символов. Русские и латинские буквы, цифры, пробелы и знаки препинания считаются по одному символу, а форма показывает, сколько символов осталось.

Длинный журнал или отчёт лучше приложить в виде PDF или скриншота, а не вставлять в текст сообщения.$$),
  ('support', 'support-response-time-notifications', 80,
   $$How quickly does support answer, and how will I know?$$,
   $$Support works the queues oldest first: the ticket that has waited longest for an answer is taken first, so a ticket never waits behind newer ones.

When support answers or changes the status of your ticket, you receive an e-mail in your language and, if the chat-bot is linked in your Profile, a Telegram message. The Support item in the menu and the ticket list mark unread answers.$$,
   $$Как быстро отвечает поддержка и как я узнаю об ответе?$$,
   $$Поддержка разбирает очереди с самых давних: первым берётся обращение, которое дольше всех ждёт ответа, поэтому ваше обращение не окажется позади более новых.

Когда поддержка отвечает или меняет статус обращения, вам приходит письмо на вашем языке, а если в профиле привязан чат-бот — сообщение в Telegram. Непрочитанные ответы отмечены в пункте меню «Поддержка» и в списке обращений.$$),
  ('support', 'support-what-to-include', 90,
   $$What should I write so that support can help quickly?$$,
   $$Give the number of the server (from My servers) or the login of the monitoring account, what you did, what you expected and what happened instead, the exact text of any error and when it appeared. A screenshot of the error helps a lot.

For payments, give the payment number from Balance operations, History; for a crypto top-up, also the TXID.$$,
   $$Что написать, чтобы поддержка помогла быстрее?$$,
   $$Укажите номер сервера (из «Мои серверы») или номер счёта в мониторинге, что вы делали, что ожидали и что произошло на самом деле, точный текст ошибки и время, когда она появилась. Скриншот ошибки очень помогает.

По платежам укажите номер платежа из «Операции с балансом», «История», а по пополнению криптовалютой — ещё и TXID.$$),
  ('support', 'vps-for-metatrader', 100,
   $$What is a VPS for MetaTrader, and why rent one?$$,
   $$A VPS is a Windows server in a data centre that runs around the clock. Your MetaTrader 4 and MetaTrader 5 terminals and Expert Advisors keep trading when your computer is off or your home internet drops.

Our servers stand in data centres close to the trading servers of many brokers (London LD4, New York NY4, Frankfurt, Amsterdam), so orders reach the broker with minimal delay. You connect over Remote Desktop, install terminals as on your own computer, and control the server from the console and the Telegram bot.$$,
   $$Что такое VPS для MetaTrader и зачем его арендовать?$$,
   $$VPS — это сервер на Windows в дата-центре, который работает круглосуточно. Ваши терминалы MetaTrader 4 и MetaTrader 5 и советники продолжают торговать, даже когда компьютер выключен или пропал домашний интернет.

Наши серверы стоят в дата-центрах рядом с торговыми серверами многих брокеров (Лондон LD4, Нью-Йорк NY4, Франкфурт, Амстердам), поэтому ордера доходят до брокера с минимальной задержкой. Вы подключаетесь по удалённому рабочему столу, устанавливаете терминалы как на свой компьютер и управляете сервером из личного кабинета и Telegram-бота.$$),
  ('support', 'vps-prices-rental-periods', 110,
   $$How much does a server cost, and are longer rentals cheaper?$$,
   $$The price depends on the plan (CPU cores, memory, disk) and the location; the current prices are on VPS, Order a server. You rent for 1, 3, 6 or 12 months paid in advance, and longer periods are cheaper: 5 % off for 3 months, 10 % for 6 months and 15 % for 12 months.

A promocode gives its discount on a 1-month rental. The order is paid from your balance, so top it up first if needed; if the balance is short, the order is refused and nothing is charged.$$,
   $$Сколько стоит сервер и дешевле ли аренда на долгий срок?$$,
   $$Цена зависит от тарифа (ядра процессора, память, диск) и локации; актуальные цены — в разделе «VPS», «Заказать сервер». Аренда оплачивается вперёд на 1, 3, 6 или 12 месяцев, и чем дольше срок, тем дешевле: скидка 5 % за 3 месяца, 10 % за 6 месяцев и 15 % за 12 месяцев.

Промокод даёт скидку на аренду на 1 месяц. Заказ оплачивается с баланса, поэтому при необходимости сначала пополните его; если денег не хватает, заказ не оформляется и ничего не списывается.$$),
  ('support', 'vps-test-server', 120,
   $$Can I try a server for free?$$,
   $$Yes. Order a test server on VPS, Order a server. There is one test server per account. Requests are reviewed within one business day; an approved test server appears in My servers and runs for 3 days.

If it suits you, order a regular server of the plan and location you need.$$,
   $$Можно ли попробовать сервер бесплатно?$$,
   $$Да. Закажите тестовый сервер в разделе «VPS», «Заказать сервер». Тестовый сервер — один на аккаунт. Заявки рассматриваются в течение одного рабочего дня; одобренный тестовый сервер появится в «Мои серверы» и проработает 3 дня.

Если всё устраивает, закажите обычный сервер нужного тарифа и локации.$$),
  ('support', 'vps-connect-remote-desktop', 130,
   $$How do I connect to my server?$$,
   $$In My servers, press Show in the login details column: you get the host, port, user name and password (the password is revealed on request). Connect with Remote Desktop Connection on Windows (mstsc) or the Microsoft Remote Desktop app on macOS, iOS and Android.

The .rdp file sets up the connection for you; it does not contain the password, so enter it when asked. The details are available once the server has been created.$$,
   $$Как подключиться к серверу?$$,
   $$В разделе «Мои серверы» нажмите «Показать» в колонке с данными для входа: там хост, порт, имя пользователя и пароль (пароль открывается по запросу). Подключайтесь через «Подключение к удалённому рабочему столу» в Windows (mstsc) или приложение Microsoft Remote Desktop на macOS, iOS и Android.

Файл .rdp сам настроит подключение; пароля в нём нет, введите его, когда попросят. Данные для входа доступны, как только сервер создан.$$),
  ('support', 'vps-start-shutdown-reboot', 140,
   $$How do I start, shut down or reboot a server, and how long does it take?$$,
   $$Use the Start, Shut down and Reboot buttons in My servers. Each operation takes 1 to 2 minutes; the console shows its progress and how it ended. While one operation runs, another one for the same server is refused: wait until it finishes.

Reboot from the console when the server does not answer over Remote Desktop. The Telegram bot can do it too: /reboot reboots a server and /start starts one that is shut down (link the bot in your Profile, under Chat-bot, Account notifications).$$,
   $$Как запустить, выключить или перезагрузить сервер и сколько это занимает?$$,
   $$Используйте кнопки «Запустить», «Выключить» и «Перезагрузить» в разделе «Мои серверы». Каждая операция занимает 1–2 минуты; кабинет показывает ход выполнения и результат. Пока идёт одна операция, новая для того же сервера не принимается — дождитесь её окончания.

Перезагружайте сервер из кабинета, если он не отвечает по удалённому рабочему столу. То же умеет Telegram-бот: /reboot перезагружает сервер, а /start запускает выключенный (привяжите бота в профиле: «Чат-бот», «Уведомления аккаунта»).$$),
  ('support', 'vps-upgrade', 150,
   $$How do I upgrade a server to a bigger plan?$$,
   $$Press Upgrade in My servers, choose the new plan and the date. You pay only the difference in monthly price for the days from that date to the paid-until date.

On the chosen date the server is shut down, resized and started again: it is offline for up to one hour, so choose a quiet time, such as a weekend. Only one upgrade can be pending at a time.$$,
   $$Как перейти на более мощный тариф?$$,
   $$Нажмите «Улучшить» в разделе «Мои серверы», выберите новый тариф и дату. Оплачивается только разница в месячной цене за дни от выбранной даты до конца оплаченного срока.

В выбранный день сервер выключается, получает новые ресурсы и запускается снова: он будет недоступен до одного часа, поэтому выберите спокойное время, например выходные. Одновременно может ждать только одно улучшение.$$),
  ('support', 'vps-renewal-auto-renewal-blocking', 160,
   $$What happens when the paid period ends? How does auto-renewal work?$$,
   $$We e-mail you 3 days and 1 day before the paid-until date. With auto-renewal on, the server is renewed from your balance a day before, for the period you chose; if the balance is short, you get an e-mail so you can top it up.

A server that is not renewed is Blocked on the paid-until date: it is shut down, but your data is kept. Renew it within 7 days and it becomes Active again. After that it is Revoked, and the machine with all its data is deleted for good.$$,
   $$Что будет, когда закончится оплаченный срок? Как работает автопродление?$$,
   $$Мы напоминаем письмом за 3 дня и за 1 день до конца оплаченного срока. Если включено автопродление, сервер продлевается с баланса за день до окончания на выбранный вами срок; если денег не хватает, придёт письмо, чтобы вы успели пополнить баланс.

Непродлённый сервер в день окончания срока блокируется: он выключается, но данные сохраняются. Продлите его в течение 7 дней, и он снова станет активным. После этого сервер отзывается, а машина со всеми данными удаляется безвозвратно.$$),
  ('support', 'balance-top-up-methods', 170,
   $$How can I top up my balance?$$,
   $$Balance operations, Top up. The methods are a bank card (from $10), an e-wallet (from $5), a crypto wallet with USDT TRC-20 or Bitcoin (from $20), and Account balance, which moves money from your partner balance (from $1). The balance is kept in US dollars.

Card and e-wallet: you pay on the payment system's page, and the balance is credited as soon as the payment is confirmed. A payment not completed within 24 hours becomes Not paid.

Crypto: send the amount to the address shown (there is a QR code), then enter your wallet and the transaction ID (TXID). An operator checks the transaction and credits the balance; until then the payment is Under review.$$,
   $$Как пополнить баланс?$$,
   $$«Операции с балансом», «Пополнение». Способы пополнения: банковская карта (от $10), электронный кошелёк (от $5), криптокошелёк — USDT TRC-20 или Bitcoin (от $20) — и «Баланс аккаунта», то есть перевод с вашего партнёрского баланса (от $1). Баланс ведётся в долларах США.

Карта и электронный кошелёк: вы оплачиваете на странице платёжной системы, и баланс пополняется, как только платёж подтверждён. Платёж, не завершённый за 24 часа, получает статус «Не оплачено».

Криптовалюта: отправьте сумму на показанный адрес (есть QR-код), затем укажите свой кошелёк и идентификатор транзакции (TXID). Оператор проверит транзакцию и зачислит деньги; до этого платёж находится в статусе «На проверке».$$),
  ('support', 'balance-transfer-between-accounts', 180,
   $$Can I transfer money to another TradeHost account?$$,
   $$Yes: Balance operations, Transfer. Enter the recipient's e-mail and the amount; the console shows the recipient's name for you to check, and after you confirm, the money moves instantly.

Transfers are made from your main balance and cannot exceed it. A transfer appears in the history of both accounts.$$,
   $$Можно ли перевести деньги на другой аккаунт TradeHost?$$,
   $$Да: «Операции с балансом», «Перевод». Укажите e-mail получателя и сумму; кабинет покажет имя получателя для проверки, и после подтверждения деньги переводятся мгновенно.

Переводы делаются с основного баланса и не могут превышать его. Перевод виден в истории обоих аккаунтов.$$),
  ('support', 'balance-history', 190,
   $$Where do I see my payments, charges and withdrawals?$$,
   $$Balance operations, History. It has four lists: payments (top-ups), transfers, charges (server orders, renewals, upgrades, monitoring) and withdrawals of partner earnings. Each shows the status of every operation, can be filtered by period, and can be downloaded as a CSV file.$$,
   $$Где посмотреть платежи, списания и выводы?$$,
   $$«Операции с балансом», «История». Там четыре списка: платежи (пополнения), переводы, списания (заказ и продление серверов, улучшения, мониторинг) и выводы партнёрских средств. В каждом виден статус операции, есть отбор по периоду и выгрузка в файл CSV.$$);
--> statement-breakpoint
INSERT INTO "faq_items" ("group", "slug", "position", "question_en", "answer_en", "question_ru", "answer_ru") VALUES
  ('monitoring', 'monitoring-what-is-it', 10,
   $$What is online monitoring?$$,
   $$Online monitoring shows a MetaTrader 4 or MetaTrader 5 trading account live: balance, equity, gain, drawdown, open positions, the trade history and dozens of statistics, with alerts and regular reports.

The data comes from a small Expert Advisor, the publisher, running in your terminal; no investor password is needed. Keep an account private for yourself, or turn on its public page to show your results to investors and followers.$$,
   $$Что такое онлайн-мониторинг?$$,
   $$Онлайн-мониторинг показывает торговый счёт MetaTrader 4 или MetaTrader 5 в реальном времени: баланс, средства, прирост, просадку, открытые позиции, историю сделок и десятки показателей, а также присылает оповещения и регулярные отчёты.

Данные отправляет небольшой советник — публикатор, работающий в вашем терминале; инвесторский пароль не нужен. Счёт можно держать закрытым только для себя или включить публичную страницу, чтобы показать результаты инвесторам и подписчикам.$$),
  ('monitoring', 'monitoring-free-plan', 20,
   $$Is there a free monitoring plan?$$,
   $$Yes. Every user can take the free plan once: it monitors 1 trading account with no end date. Take it on Online monitoring, Subscription.

To monitor more accounts, buy a paid subscription. The free plan itself cannot be extended or enlarged.$$,
   $$Есть ли бесплатный тариф мониторинга?$$,
   $$Да. Каждый пользователь может один раз подключить бесплатный тариф: 1 торговый счёт без ограничения срока. Подключите его в разделе «Онлайн-мониторинг», «Подписка».

Чтобы следить за большим числом счетов, купите платную подписку. Сам бесплатный тариф не продлевается и не расширяется.$$),
  ('monitoring', 'monitoring-subscription-prices', 30,
   $$How much does a paid monitoring subscription cost?$$,
   $$A paid subscription costs $3 per trading account per month. It covers 1 to 50 accounts for 1 to 12 months, and longer periods are cheaper: 5 % off from 3 months, 10 % from 6 months and 15 % for 12 months.

Example: 5 accounts for 6 months cost 5 × 6 × $3 = $90, less 10 %, that is $81. The subscription is paid from your balance, and the console shows the exact price before you pay.$$,
   $$Сколько стоит платная подписка на мониторинг?$$,
   $$Платная подписка стоит $3 за торговый счёт в месяц. Её можно купить на 1–50 счетов и на 1–12 месяцев, и долгий срок выгоднее: скидка 5 % от 3 месяцев, 10 % от 6 месяцев и 15 % за 12 месяцев.

Пример: 5 счетов на 6 месяцев стоят 5 × 6 × $3 = $90 минус 10 %, то есть $81. Подписка оплачивается с баланса, а точную цену кабинет показывает до оплаты.$$),
  ('monitoring', 'monitoring-extend-add-accounts', 40,
   $$How do I renew a subscription or add more accounts?$$,
   $$On Subscription, Extend adds months from the subscription's end date (or from today if it has already ended), at the same price per account a month. Add accounts enlarges a running subscription: you pay only for the days left until its end.

We e-mail you 3 days and 1 day before a paid subscription ends. When it ends, the publisher's data is refused and the pages stop updating; the accounts and their history are kept for 90 days, so renew in time to keep everything. After 90 days they are deleted.$$,
   $$Как продлить подписку или добавить счета?$$,
   $$В разделе «Подписка» кнопка «Продлить» добавляет месяцы от даты окончания подписки (или от сегодняшнего дня, если она уже закончилась) по той же цене за счёт в месяц. «Добавить счета» расширяет действующую подписку: оплачиваются только дни до её окончания.

Мы напоминаем письмом за 3 дня и за 1 день до окончания платной подписки. Когда она заканчивается, данные от публикатора больше не принимаются и страницы перестают обновляться; счета и их история хранятся 90 дней, так что продлите подписку вовремя, чтобы ничего не потерять. Через 90 дней они удаляются.$$),
  ('monitoring', 'monitoring-activation-key', 50,
   $$What is the activation key, and how do I keep it safe?$$,
   $$The activation key connects the publisher in your terminal to your subscription: one key per subscription, for all of its accounts. Find it on Subscription, "Show the activation key".

Treat it like a password. If it may have leaked, press "Regenerate the key": a new key is made and the old one stops working at once, so paste the new key into every terminal of that subscription.$$,
   $$Что такое ключ активации и как его защитить?$$,
   $$Ключ активации связывает публикатор в вашем терминале с подпиской: один ключ на подписку, для всех её счетов. Он находится в разделе «Подписка», кнопка «Показать ключ активации».

Храните его как пароль. Если ключ мог попасть к посторонним, нажмите «Сменить ключ»: будет создан новый, а старый сразу перестанет работать, поэтому вставьте новый ключ во все терминалы этой подписки.$$),
  ('monitoring', 'monitoring-add-trading-account', 60,
   $$How do I add a trading account to monitoring?$$,
   $$On My accounts, add an account: choose the subscription, enter the account number (login) exactly as in MetaTrader, the platform (MT4 or MT5), a name for the monitoring and the e-mail where its alerts and reports go. Then connect the terminal with the publisher (see the questions of the Monitoring guide topic).

A subscription holds as many accounts as it was bought for. To add one more, delete an account you no longer need (its place becomes free) or add accounts to the subscription. An account that already reports under another subscription is refused.$$,
   $$Как добавить торговый счёт в мониторинг?$$,
   $$В разделе «Мои счета» добавьте счёт: выберите подписку, укажите номер счёта (логин) точно как в MetaTrader, платформу (MT4 или MT5), название для мониторинга и e-mail, на который будут приходить оповещения и отчёты. Затем подключите терминал с помощью публикатора (см. вопросы темы «Руководство по мониторингу»).

В подписку помещается столько счетов, на сколько она куплена. Чтобы добавить ещё один, удалите ненужный счёт (его место освободится) или добавьте счета в подписку. Счёт, который уже передаёт данные в другой подписке, добавить не получится.$$),
  ('monitoring', 'monitoring-public-page', 70,
   $$How do I share my results on a public page?$$,
   $$In an account's Settings, turn on the public page. It gets a permanent link that you can share; anyone can open it without signing in. You decide what it shows: you can hide the account number, the broker and server, money figures (only percentages remain), open positions and the trade history.

Views are counted once per visitor a day, and visitors' addresses are not stored. Turn the public page off at any time, and the link stops working.$$,
   $$Как показать результаты на публичной странице?$$,
   $$В настройках счёта включите публичную страницу. У неё будет постоянная ссылка, которой можно делиться; открыть страницу может любой, без входа в аккаунт. Что на ней видно, решаете вы: можно скрыть номер счёта, брокера и сервер, денежные показатели (останутся только проценты), открытые позиции и историю сделок.

Просмотры считаются один раз в день на посетителя, адреса посетителей не сохраняются. Публичную страницу можно выключить в любой момент — ссылка перестанет открываться.$$),
  ('monitoring', 'monitoring-alerts', 80,
   $$Which alerts can I set up?$$,
   $$In an account's Alerts and reports you can switch on: drawdown from the equity peak above a percentage; equity below an amount; margin level below a percentage, to act before a margin call; daily loss above an amount, counted from midnight in the account's time zone; no data for a number of minutes (5 to 1440, counting market hours only); and positions opened or closed.

Alerts go by e-mail to the account's address and to Telegram when the monitoring chat is linked. Each rule fires once when its line is crossed and fires again only after the account recovers by 5 % of the line, so you are not flooded. The alert history shows every alert and whether it was delivered.$$,
   $$Какие оповещения можно настроить?$$,
   $$В разделе счёта «Оповещения и отчёты» можно включить: просадку от пика средств больше заданного процента; средства ниже заданной суммы; уровень маржи ниже заданного процента, чтобы успеть до маржин-колла; убыток за день больше заданной суммы (считается с полуночи в часовом поясе счёта); отсутствие данных дольше заданного числа минут (от 5 до 1440, учитываются только часы работы рынка); открытие и закрытие позиций.

Оповещения приходят на e-mail счёта и в Telegram, если привязан чат мониторинга. Каждое правило срабатывает один раз при пересечении порога и снова — только после того, как счёт восстановится на 5 % от порога, поэтому лавины сообщений не будет. В истории оповещений видно каждое оповещение и доставлено ли оно.$$),
  ('monitoring', 'monitoring-reports', 90,
   $$What reports can I receive?$$,
   $$Daily, weekly and monthly reports for each account: gain, profit, drawdown, the number of trades, and the best and the worst trade of the period. Switch them on in the account's Alerts and reports.

Each report is sent once per period, when the day, week or month ends in the account's time zone (set it in the account's Settings), by e-mail and to Telegram when the monitoring chat is linked.$$,
   $$Какие отчёты можно получать?$$,
   $$Ежедневные, еженедельные и ежемесячные отчёты по каждому счёту: прирост, прибыль, просадка, число сделок, лучшая и худшая сделка за период. Включите их в разделе счёта «Оповещения и отчёты».

Каждый отчёт отправляется один раз за период, когда заканчиваются день, неделя или месяц в часовом поясе счёта (его можно выбрать в настройках счёта), на e-mail и в Telegram, если привязан чат мониторинга.$$),
  ('monitoring', 'monitoring-telegram-bot', 100,
   $$How do I get monitoring alerts in Telegram?$$,
   $$In your Profile, under Chat-bot, press "Link Telegram" for Monitoring. Telegram opens the bot with a one-time link that works for 15 minutes; press Start, and the chat is linked. Alerts and reports of your accounts then arrive there.

The bot also answers commands: /accounts shows your accounts with their gain, drawdown and last update, /alerts switches an account's alerts on or off, /lang changes the language, /unlink unlinks the chat, and /help lists the commands.

If a terminal running on one of your TradeHost servers goes silent, the alert names the server and its state and offers a Reboot button.$$,
   $$Как получать оповещения мониторинга в Telegram?$$,
   $$В профиле, в разделе «Чат-бот», нажмите «Привязать Telegram» у пункта «Мониторинг». Telegram откроет бота по одноразовой ссылке, которая действует 15 минут; нажмите «Запустить», и чат будет привязан. После этого туда приходят оповещения и отчёты по вашим счетам.

Бот понимает команды: /accounts — ваши счета с приростом, просадкой и временем последнего обновления, /alerts — включить или выключить оповещения счёта, /lang — смена языка, /unlink — отвязать чат, /help — список команд.

Если замолчал терминал на одном из ваших серверов TradeHost, оповещение назовёт сервер и его состояние и предложит кнопку перезагрузки.$$),
  ('monitoring', 'monitoring-gain-and-drawdown', 110,
   $$How are gain and drawdown calculated? Why doesn't a deposit change my gain?$$,
   $$Gain is time-weighted: the history is split at every deposit and withdrawal, the growth of each part is measured, and the parts are multiplied. So neither a deposit nor a withdrawal changes the gain; only trading results do. Credit and bonuses never count as profit or deposits.

Maximal drawdown is the largest fall of that growth from a previous peak, and a withdrawal is never counted as drawdown. Equity drawdown is the same fall measured on equity, open positions included.

Every figure is explained when you hover over it, and all definitions are on the Guide tab.$$,
   $$Как считаются прирост и просадка? Почему пополнение не меняет прирост?$$,
   $$Прирост считается с учётом времени: история делится на части по каждому пополнению и выводу средств, рост каждой части измеряется отдельно, и результаты перемножаются. Поэтому ни пополнение, ни вывод не меняют прирост — его меняют только торговые результаты. Кредит и бонусы никогда не считаются прибылью или пополнением.

Максимальная просадка — наибольшее падение этого роста от предыдущего пика, причём вывод средств просадкой не считается. Просадка по средствам — такое же падение, измеренное по средствам с учётом открытых позиций.

Каждый показатель поясняется при наведении, а все определения собраны на вкладке «Инструкция».$$),
  ('monitoring', 'monitoring-trade-history-export', 120,
   $$Can I download the trade history of an account?$$,
   $$Yes. On the account's page, the trade history lists the closed trades, newest first, and can be downloaded as a CSV file that opens in Excel or Google Sheets. The daily and monthly tables show gain, profit and trades by period in the account's time zone.$$,
   $$Можно ли скачать историю сделок счёта?$$,
   $$Да. На странице счёта в истории сделок перечислены закрытые сделки, новые сверху, и её можно скачать файлом CSV, который открывается в Excel или Google Таблицах. Таблицы по дням и месяцам показывают прирост, прибыль и число сделок за каждый период в часовом поясе счёта.$$);
--> statement-breakpoint
INSERT INTO "faq_items" ("group", "slug", "position", "question_en", "answer_en", "question_ru", "answer_ru") VALUES
  ('monitoring_guide', 'guide-connect-terminal-steps', 10,
   $$How do I connect my MetaTrader terminal to monitoring, step by step?$$,
   $$1. Take the free plan or buy a subscription (Online monitoring, Subscription), and add your trading account on My accounts.

2. Download the publisher for your terminal on the Guide tab: TradeHostPublisher.mq5 for MetaTrader 5 or TradeHostPublisher.mq4 for MetaTrader 4, and install it in the terminal.

3. In the terminal, allow WebRequest for the console's address.

4. Attach the publisher to any chart and paste your activation key.

5. Check that data arrives: the corner of the chart says "publishing", and the account's page fills in.

The next questions explain each step in detail.$$,
   $$Как подключить терминал MetaTrader к мониторингу? Пошаговая инструкция$$,
   $$1. Подключите бесплатный тариф или купите подписку («Онлайн-мониторинг», «Подписка») и добавьте торговый счёт в разделе «Мои счета».

2. Скачайте публикатор для своего терминала на вкладке «Инструкция»: TradeHostPublisher.mq5 для MetaTrader 5 или TradeHostPublisher.mq4 для MetaTrader 4 — и установите его в терминал.

3. Разрешите в терминале WebRequest для адреса личного кабинета.

4. Прикрепите публикатор к любому графику и вставьте ключ активации.

5. Проверьте, что данные поступают: в углу графика написано «publishing», а страница счёта заполняется.

Каждый шаг подробно описан в следующих вопросах.$$),
  ('monitoring_guide', 'guide-install-publisher', 20,
   $$How do I install the publisher Expert Advisor?$$,
   $$1. In MetaTrader, open File, Open Data Folder.

2. Go to MQL5, Experts (MetaTrader 5) or MQL4, Experts (MetaTrader 4) and copy the downloaded file there.

3. Open the file in MetaEditor (F4 in the terminal) and press Compile (F7). A file with the same name and the .ex5 or .ex4 extension appears next to it; the compiler must report no errors.

4. Back in the terminal, open the Navigator (Ctrl+N), right-click Expert Advisors and choose Refresh: TradeHostPublisher appears in the list.

Use the file for your platform: the MetaTrader 5 version does not run in MetaTrader 4, and the other way round.$$,
   $$Как установить советник-публикатор?$$,
   $$1. В MetaTrader откройте «Файл», «Открыть каталог данных».

2. Перейдите в MQL5, Experts (MetaTrader 5) или MQL4, Experts (MetaTrader 4) и скопируйте туда скачанный файл.

3. Откройте файл в MetaEditor (F4 в терминале) и нажмите «Компилировать» (F7). Рядом появится файл с тем же именем и расширением .ex5 или .ex4; компилятор не должен сообщать об ошибках.

4. Вернитесь в терминал, откройте «Навигатор» (Ctrl+N), нажмите правой кнопкой на «Советники» и выберите «Обновить»: в списке появится TradeHostPublisher.

Берите файл для своей платформы: версия для MetaTrader 5 не запустится в MetaTrader 4, и наоборот.$$),
  ('monitoring_guide', 'guide-allow-webrequest', 30,
   $$How do I allow WebRequest for the monitoring address?$$,
   $$MetaTrader lets an Expert Advisor send data only to addresses you have allowed.

1. Open Tools, Options (Ctrl+O), the Expert Advisors tab.

2. Tick "Allow WebRequest for listed URL".

3. Add the address of this console as your browser shows it, with https:// and without any path or slash at the end. The Guide tab shows the exact address to copy.

4. Press OK.

Without this, the publisher stops, and the corner of the chart says "allow WebRequest for ... in Tools > Options > Expert Advisors".$$,
   $$Как разрешить WebRequest для адреса мониторинга?$$,
   $$MetaTrader разрешает советнику отправлять данные только на адреса, которые вы разрешили.

1. Откройте «Сервис», «Настройки» (Ctrl+O), вкладку «Советники».

2. Отметьте «Разрешать WebRequest для следующих URL».

3. Добавьте адрес этого личного кабинета так, как его показывает браузер: с https:// и без пути и косой черты в конце. Точный адрес для копирования есть на вкладке «Инструкция».

4. Нажмите «ОК».

Без этого разрешения публикатор остановится, а в углу графика появится надпись «allow WebRequest for ... in Tools > Options > Expert Advisors».$$),
  ('monitoring_guide', 'guide-attach-publisher-paste-key', 40,
   $$How do I attach the publisher to a chart and paste the activation key?$$,
   $$1. Open any chart: the symbol and the timeframe do not matter, because the publisher reports the whole account, not one symbol.

2. Drag TradeHostPublisher from the Navigator onto the chart.

3. On the Inputs tab, paste your activation key into ActivationKey, and put the console's address into ServerUrl (the same address you allowed for WebRequest).

4. Press OK.

One chart per account is enough. Copy the key with the "Copy the key" button on Subscription, so no space or character is lost.$$,
   $$Как прикрепить публикатор к графику и вставить ключ активации?$$,
   $$1. Откройте любой график: символ и таймфрейм не важны, публикатор передаёт данные всего счёта, а не одного инструмента.

2. Перетащите TradeHostPublisher из «Навигатора» на график.

3. На вкладке «Входные параметры» вставьте ключ активации в поле ActivationKey, а в ServerUrl укажите адрес личного кабинета (тот же, что вы разрешили для WebRequest).

4. Нажмите «ОК».

Для одного счёта достаточно одного графика. Копируйте ключ кнопкой «Скопировать ключ» в разделе «Подписка», чтобы не потерять ни одного символа.$$),
  ('monitoring_guide', 'guide-check-data-arrives', 50,
   $$How do I check that the data arrives?$$,
   $$Look at the top left corner of the chart: the publisher writes its state there. "TradeHost monitoring: publishing; last snapshot 12:00:10" means everything works, and the time updates every 10 seconds.

On its first start the publisher sends the whole history of the account (a long history can take a minute), then new deals as they happen and a snapshot of the account every 10 seconds. Open the account on My accounts: the balance, the chart and the trade history fill in, and the figures are recalculated a few seconds after new deals.$$,
   $$Как проверить, что данные поступают?$$,
   $$Посмотрите в левый верхний угол графика: там публикатор пишет своё состояние. Надпись «TradeHost monitoring: publishing; last snapshot 12:00:10» значит, что всё работает, а время обновляется каждые 10 секунд.

При первом запуске публикатор отправляет всю историю счёта (длинная история может занять минуту), затем новые сделки по мере их появления и снимок счёта каждые 10 секунд. Откройте счёт в разделе «Мои счета»: баланс, график и история сделок заполнятся, а показатели пересчитываются через несколько секунд после новых сделок.$$),
  ('monitoring_guide', 'guide-activation-key-not-known', 60,
   $$The chart says "stopped: The activation key is not known". What should I do?$$,
   $$The key was copied with a mistake, or it has been regenerated since. Copy it again on Subscription ("Show the activation key", then "Copy the key").

After a refusal the publisher stops and does not retry by itself. Remove it from the chart (right-click the chart, Expert Advisors, Remove; or simply close the chart) and attach it again with the new key.

If the corner says "stopped: paste the activation key from the console into the inputs", the ActivationKey field is empty or incomplete.$$,
   $$На графике написано «stopped: The activation key is not known». Что делать?$$,
   $$Ключ скопирован с ошибкой или с тех пор был сменён. Скопируйте его заново в разделе «Подписка» («Показать ключ активации», затем «Скопировать ключ»).

После отказа сервера публикатор останавливается и сам не повторяет попытки. Удалите его с графика (правой кнопкой по графику, «Советники», «Удалить», или просто закройте график) и прикрепите снова с новым ключом.

Если в углу написано «stopped: paste the activation key from the console into the inputs», поле ActivationKey пустое или ключ вставлен не полностью.$$),
  ('monitoring_guide', 'guide-account-not-added-subscription-ended', 70,
   $$The publisher says the account is not added, or the subscription has ended. How do I fix it?$$,
   $$"This account is not added to the subscription": the account the terminal is logged in to is not on My accounts under the subscription whose key you pasted. Check the account number in MetaTrader (Navigator, Accounts) and add it to that subscription.

"The subscription has ended: renew it to continue": extend the subscription on Subscription. Data sent before the end is kept for 90 days.

"This account is already monitored in another subscription": this account already reports under another subscription's key. Use that key, or delete the account from the other subscription first.

After fixing, remove the publisher from the chart and attach it again: after a refusal it does not retry by itself.$$,
   $$Публикатор пишет, что счёт не добавлен или подписка закончилась. Как исправить?$$,
   $$«This account is not added to the subscription» — счёта, на который вошёл терминал, нет в разделе «Мои счета» в подписке, чей ключ вы вставили. Проверьте номер счёта в MetaTrader («Навигатор», «Счета») и добавьте его в эту подписку.

«The subscription has ended: renew it to continue» — продлите подписку в разделе «Подписка». Данные, полученные до окончания, хранятся 90 дней.

«This account is already monitored in another subscription» — этот счёт уже передаёт данные по ключу другой подписки. Используйте тот ключ или сначала удалите счёт из другой подписки.

Исправив причину, удалите публикатор с графика и прикрепите снова: после отказа он сам не повторяет попытки.$$),
  ('monitoring_guide', 'guide-server-not-answering', 80,
   $$The chart says "the server is not answering; trying again". What should I check?$$,
   $$The publisher could not reach the server or got an error from it. It retries by itself after 1, 2, 5 and 15 seconds and then every minute, so a short outage needs nothing from you: nothing is lost, and the deals are sent from where it stopped.

If it lasts, check the internet connection of the computer or server with the terminal, and that ServerUrl is exactly the console's address, with https:// and nothing after it, and that the same address is in the WebRequest list.

"the server asks to wait" means too many requests were sent in a short time; the publisher continues by itself after the pause.$$,
   $$На графике написано «the server is not answering; trying again». Что проверить?$$,
   $$Публикатор не смог связаться с сервером или получил от него ошибку. Он сам повторяет попытки через 1, 2, 5 и 15 секунд, а затем раз в минуту, поэтому при коротком сбое ничего делать не нужно: данные не теряются, сделки отправятся с того места, где публикатор остановился.

Если это длится долго, проверьте интернет на компьютере или сервере с терминалом, что в ServerUrl указан точно адрес личного кабинета — с https:// и без лишних символов в конце — и что этот же адрес есть в списке WebRequest.

Надпись «the server asks to wait» значит, что за короткое время было слишком много запросов; после паузы публикатор продолжит сам.$$),
  ('monitoring_guide', 'guide-publisher-not-running', 90,
   $$Nothing appears in the corner of the chart. The publisher does not seem to run.$$,
   $$Check that the publisher is compiled for your platform and is attached: its name is shown in the top right corner of the chart. Messages about it are on the Experts tab of the Toolbox (Ctrl+T).

If the icon next to its name is grey or sad, turn on Algo Trading (MetaTrader 5) or AutoTrading (MetaTrader 4) on the toolbar. The publisher never opens, changes or closes orders; it only reads the account.

The terminal must also be connected to the broker (see the connection indicator in the bottom right corner): without a connection there is no account data to send.$$,
   $$В углу графика ничего нет. Похоже, публикатор не работает.$$,
   $$Проверьте, что публикатор скомпилирован для вашей платформы и прикреплён к графику: его название видно в правом верхнем углу графика. Сообщения о его работе — на вкладке «Эксперты» в окне «Инструменты» (Ctrl+T).

Если значок рядом с названием серый или грустный, включите «Алготорговлю» (MetaTrader 5) или «Автоторговлю» (MetaTrader 4) на панели инструментов. Публикатор никогда не открывает, не изменяет и не закрывает ордера — он только читает данные счёта.

Терминал также должен быть подключён к брокеру (индикатор соединения в правом нижнем углу): без подключения данных счёта для отправки нет.$$),
  ('monitoring_guide', 'guide-keep-terminal-running-vps', 100,
   $$Does my computer have to stay on for monitoring to work?$$,
   $$Yes. The publisher works inside the terminal, so data arrives only while the terminal is running and connected to the broker. A "No data" alert can warn you when it stops.

For round-the-clock monitoring, run the terminal on a TradeHost VPS. If a terminal on one of your servers goes silent, the alert names the server and its state, and the Telegram bot offers a Reboot button.$$,
   $$Должен ли компьютер быть постоянно включён, чтобы мониторинг работал?$$,
   $$Да. Публикатор работает внутри терминала, поэтому данные поступают только пока терминал запущен и подключён к брокеру. Оповещение «Нет данных» предупредит, если передача остановилась.

Для круглосуточного мониторинга запустите терминал на VPS от TradeHost. Если терминал на одном из ваших серверов замолчит, оповещение назовёт сервер и его состояние, а Telegram-бот предложит кнопку перезагрузки.$$),
  ('monitoring_guide', 'guide-several-accounts', 110,
   $$How do I monitor several trading accounts?$$,
   $$Each account needs a terminal logged in to it with the publisher on one chart: a terminal reports the account it is logged in to at the moment. All accounts of one subscription use the same activation key.

To run several terminals on one computer or server, install MetaTrader into separate folders (the installer lets you choose the folder) and attach the publisher in each one.$$,
   $$Как подключить к мониторингу несколько торговых счетов?$$,
   $$Для каждого счёта нужен терминал, в котором выполнен вход в этот счёт, и публикатор на одном графике: терминал передаёт данные того счёта, в который он вошёл сейчас. У всех счетов одной подписки общий ключ активации.

Чтобы запустить несколько терминалов на одном компьютере или сервере, установите MetaTrader в разные папки (папку можно выбрать при установке) и прикрепите публикатор в каждом.$$),
  ('monitoring_guide', 'guide-what-publisher-sends', 120,
   $$What data does the publisher send? Can it trade on my account?$$,
   $$It only reads and sends: the account's details (number, broker server and company, currency, leverage), its deals, and every 10 seconds the balance, equity, margin and open positions. It never opens, changes or closes orders, and it does not need your password.

The data goes only to the address you set in ServerUrl, with your activation key, and other users see it only if you turn on the account's public page.$$,
   $$Какие данные отправляет публикатор? Может ли он торговать на моём счёте?$$,
   $$Он только читает и отправляет: данные счёта (номер, сервер и компанию брокера, валюту, плечо), сделки, а каждые 10 секунд — баланс, средства, маржу и открытые позиции. Он никогда не открывает, не изменяет и не закрывает ордера, и ему не нужен ваш пароль.

Данные уходят только на адрес, указанный в ServerUrl, с вашим ключом активации, и другие пользователи видят их, только если вы включите публичную страницу счёта.$$);
