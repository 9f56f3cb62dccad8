CREATE TABLE "promocodes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"code" text NOT NULL,
	"discount_percent" integer NOT NULL,
	"owner_user_id" bigint,
	"created_by" bigint,
	"active" boolean DEFAULT true NOT NULL,
	"times_used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "promocodes_percent_check" CHECK ("promocodes"."discount_percent" between 1 and 90)
);
--> statement-breakpoint
CREATE TABLE "sim_faults" (
	"id" serial PRIMARY KEY NOT NULL,
	"operation" text NOT NULL,
	"kind" text NOT NULL,
	"message" text DEFAULT 'The simulated hypervisor refused the operation' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_machines" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"template_id" text NOT NULL,
	"cores" integer NOT NULL,
	"memory_mb" integer NOT NULL,
	"disk_gb" integer NOT NULL,
	"status" text DEFAULT 'stopped' NOT NULL,
	"password_set_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "sim_machines_status_check" CHECK ("sim_machines"."status" in ('running', 'stopped'))
);
--> statement-breakpoint
CREATE TABLE "vps_operations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"server_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"actor_id" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "vps_operations_kind_check" CHECK ("vps_operations"."kind" in ('create', 'start', 'shutdown', 'reboot', 'upgrade', 'block', 'reactivate', 'revoke')),
	CONSTRAINT "vps_operations_status_check" CHECK ("vps_operations"."status" in ('queued', 'running', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "vps_period_discounts" (
	"months" integer PRIMARY KEY NOT NULL,
	"discount_percent" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "vps_period_discounts_months_check" CHECK ("vps_period_discounts"."months" in (1, 3, 6, 12)),
	CONSTRAINT "vps_period_discounts_percent_check" CHECK ("vps_period_discounts"."discount_percent" between 0 and 90)
);
--> statement-breakpoint
CREATE TABLE "vps_rates" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"cpu_cores" integer NOT NULL,
	"ram_gb" integer NOT NULL,
	"disk_gb" integer NOT NULL,
	"location" text NOT NULL,
	"monthly_price_cents" bigint NOT NULL,
	"template_id" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "vps_rates_price_check" CHECK ("vps_rates"."monthly_price_cents" > 0),
	CONSTRAINT "vps_rates_size_check" CHECK ("vps_rates"."cpu_cores" > 0 and "vps_rates"."ram_gb" > 0 and "vps_rates"."disk_gb" > 0)
);
--> statement-breakpoint
CREATE TABLE "vps_servers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint NOT NULL,
	"rate_id" integer NOT NULL,
	"status" text DEFAULT 'provisioning' NOT NULL,
	"power" text DEFAULT 'unknown' NOT NULL,
	"machine_id" text,
	"host" text,
	"port" integer,
	"username" text,
	"password_enc" text,
	"comment" text DEFAULT '' NOT NULL,
	"source" text,
	"is_trial" boolean DEFAULT false NOT NULL,
	"paid_until" timestamp with time zone NOT NULL,
	"auto_renew" boolean DEFAULT false NOT NULL,
	"renew_months" integer DEFAULT 1 NOT NULL,
	"charge_id" bigint,
	"promocode_id" bigint,
	"warned_3d_at" timestamp with time zone,
	"warned_1d_at" timestamp with time zone,
	"auto_renew_failed_at" timestamp with time zone,
	"blocked_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"failure" text,
	CONSTRAINT "vps_servers_status_check" CHECK ("vps_servers"."status" in ('provisioning', 'active', 'blocked', 'revoked', 'failed')),
	CONSTRAINT "vps_servers_power_check" CHECK ("vps_servers"."power" in ('running', 'stopped', 'unknown')),
	CONSTRAINT "vps_servers_renew_months_check" CHECK ("vps_servers"."renew_months" in (1, 3, 6, 12)),
	CONSTRAINT "vps_servers_comment_check" CHECK (char_length("vps_servers"."comment") <= 200)
);
--> statement-breakpoint
CREATE TABLE "vps_test_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" bigint NOT NULL,
	"status" text DEFAULT 'under_review' NOT NULL,
	"source" text NOT NULL,
	"reason" text,
	"server_id" bigint,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	CONSTRAINT "vps_test_requests_status_check" CHECK ("vps_test_requests"."status" in ('under_review', 'approved', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "vps_upgrades" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"server_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"from_rate_id" integer NOT NULL,
	"to_rate_id" integer NOT NULL,
	"scheduled_for" date NOT NULL,
	"price_cents" bigint NOT NULL,
	"charge_id" bigint,
	"status" text DEFAULT 'pending' NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "vps_upgrades_price_check" CHECK ("vps_upgrades"."price_cents" >= 0),
	CONSTRAINT "vps_upgrades_status_check" CHECK ("vps_upgrades"."status" in ('pending', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_kind_check";--> statement-breakpoint
ALTER TABLE "promocodes" ADD CONSTRAINT "promocodes_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promocodes" ADD CONSTRAINT "promocodes_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_operations" ADD CONSTRAINT "vps_operations_server_id_vps_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."vps_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_operations" ADD CONSTRAINT "vps_operations_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_servers" ADD CONSTRAINT "vps_servers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_servers" ADD CONSTRAINT "vps_servers_rate_id_vps_rates_id_fk" FOREIGN KEY ("rate_id") REFERENCES "public"."vps_rates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_servers" ADD CONSTRAINT "vps_servers_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_servers" ADD CONSTRAINT "vps_servers_promocode_id_promocodes_id_fk" FOREIGN KEY ("promocode_id") REFERENCES "public"."promocodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_test_requests" ADD CONSTRAINT "vps_test_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_test_requests" ADD CONSTRAINT "vps_test_requests_server_id_vps_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."vps_servers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_test_requests" ADD CONSTRAINT "vps_test_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_upgrades" ADD CONSTRAINT "vps_upgrades_server_id_vps_servers_id_fk" FOREIGN KEY ("server_id") REFERENCES "public"."vps_servers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_upgrades" ADD CONSTRAINT "vps_upgrades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_upgrades" ADD CONSTRAINT "vps_upgrades_from_rate_id_vps_rates_id_fk" FOREIGN KEY ("from_rate_id") REFERENCES "public"."vps_rates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_upgrades" ADD CONSTRAINT "vps_upgrades_to_rate_id_vps_rates_id_fk" FOREIGN KEY ("to_rate_id") REFERENCES "public"."vps_rates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vps_upgrades" ADD CONSTRAINT "vps_upgrades_charge_id_charges_id_fk" FOREIGN KEY ("charge_id") REFERENCES "public"."charges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promocodes_code_key" ON "promocodes" USING btree (upper("code"));--> statement-breakpoint
CREATE INDEX "vps_operations_server_id_idx" ON "vps_operations" USING btree ("server_id","id");--> statement-breakpoint
CREATE INDEX "vps_operations_status_idx" ON "vps_operations" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "vps_operations_one_active_key" ON "vps_operations" USING btree ("server_id") WHERE "vps_operations"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "vps_servers_user_id_idx" ON "vps_servers" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "vps_servers_status_paid_until_idx" ON "vps_servers" USING btree ("status","paid_until");--> statement-breakpoint
CREATE UNIQUE INDEX "vps_test_requests_user_key" ON "vps_test_requests" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "vps_test_requests_status_idx" ON "vps_test_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "vps_upgrades_due_idx" ON "vps_upgrades" USING btree ("status","scheduled_for");--> statement-breakpoint
CREATE UNIQUE INDEX "vps_upgrades_one_pending_key" ON "vps_upgrades" USING btree ("server_id") WHERE "vps_upgrades"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_kind_check" CHECK ("ledger_transactions"."kind" in ('topup', 'transfer', 'charge', 'withdrawal', 'adjustment', 'partner_move', 'refund'));--> statement-breakpoint
-- The catalogue a new installation starts with; the operator edits it in the operator area.
-- Locations are the Equinix data centres the forex brokers' trade servers sit in.
INSERT INTO "vps_rates" ("name", "cpu_cores", "ram_gb", "disk_gb", "location", "monthly_price_cents", "template_id", "sort") VALUES
  ('Start', 1, 2, 30, 'London (LD4)', 1200, '9000', 10),
  ('Trader', 2, 4, 60, 'London (LD4)', 2200, '9000', 20),
  ('Pro', 4, 8, 120, 'London (LD4)', 3900, '9000', 30),
  ('Max', 8, 16, 240, 'London (LD4)', 7400, '9000', 40),
  ('Start', 1, 2, 30, 'New York (NY4)', 1400, '9000', 50),
  ('Trader', 2, 4, 60, 'New York (NY4)', 2500, '9000', 60),
  ('Pro', 4, 8, 120, 'New York (NY4)', 4400, '9000', 70),
  ('Trader', 2, 4, 60, 'Frankfurt (FR2)', 2000, '9000', 80),
  ('Trader', 2, 4, 60, 'Amsterdam (AM3)', 1900, '9000', 90);--> statement-breakpoint
INSERT INTO "vps_period_discounts" ("months", "discount_percent") VALUES (1, 0), (3, 5), (6, 10), (12, 15);
