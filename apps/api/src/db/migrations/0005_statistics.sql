CREATE TABLE "monitoring_statistics" (
	"account_id" bigint PRIMARY KEY NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"gain" double precision NOT NULL,
	"max_drawdown" double precision NOT NULL,
	"profit" double precision NOT NULL,
	"trades" integer NOT NULL,
	"figures" jsonb NOT NULL,
	"chart" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "monitoring_views" (
	"account_id" bigint NOT NULL,
	"day" text NOT NULL,
	"visitor" text NOT NULL,
	CONSTRAINT "monitoring_views_account_id_day_visitor_pk" PRIMARY KEY("account_id","day","visitor")
);
--> statement-breakpoint
ALTER TABLE "monitoring_statistics" ADD CONSTRAINT "monitoring_statistics_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "monitoring_views" ADD CONSTRAINT "monitoring_views_account_id_monitoring_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."monitoring_accounts"("id") ON DELETE cascade ON UPDATE no action;