CREATE TABLE "sim_processes" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer NOT NULL,
	"image" text NOT NULL,
	"pid" integer NOT NULL,
	"session_name" text DEFAULT 'Console' NOT NULL,
	"session_number" integer DEFAULT 1 NOT NULL,
	"user_name" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"machine_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"template_id" text NOT NULL,
	"cores" integer NOT NULL,
	"memory_mb" integer NOT NULL,
	"disk_gb" integer NOT NULL,
	"terminals" text[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "status_since" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "terminals" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sim_machines" ADD COLUMN "reinstalled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sim_processes" ADD CONSTRAINT "sim_processes_machine_id_sim_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."sim_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_snapshots" ADD CONSTRAINT "sim_snapshots_machine_id_sim_machines_id_fk" FOREIGN KEY ("machine_id") REFERENCES "public"."sim_machines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sim_processes_machine_pid_key" ON "sim_processes" USING btree ("machine_id","pid");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_snapshots_machine_name_key" ON "sim_snapshots" USING btree ("machine_id","name");