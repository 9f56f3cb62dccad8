CREATE TABLE "monitoring_strategies" (
	"account_id" bigint NOT NULL,
	"magic" bigint NOT NULL,
	"name" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "monitoring_strategies_account_id_magic_pk" PRIMARY KEY("account_id","magic"),
	CONSTRAINT "monitoring_strategies_name_check" CHECK (char_length("monitoring_strategies"."name") between 1 and 40),
	CONSTRAINT "monitoring_strategies_magic_check" CHECK ("monitoring_strategies"."magic" <> 0)
);
--> statement-breakpoint
ALTER TABLE "monitoring_strategies" ADD CONSTRAINT "monitoring_strategies_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;