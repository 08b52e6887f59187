CREATE TABLE `endpoint_usage` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`endpoint_id` integer NOT NULL,
	`at` integer NOT NULL,
	`tokens` integer DEFAULT 0 NOT NULL,
	`in_flight_until` integer,
	FOREIGN KEY (`endpoint_id`) REFERENCES `endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `endpoint_usage_at` ON `endpoint_usage` (`endpoint_id`,`at`);--> statement-breakpoint
CREATE TABLE `endpoints` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`api_key_enc` text,
	`models` text,
	`concurrency` integer,
	`rpm` integer,
	`tpm` integer,
	`timeout_ms` integer,
	`json_mode` text DEFAULT 'off' NOT NULL,
	`json_mode_fallback` text,
	`json_mode_note` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `endpoints_name_unique` ON `endpoints` (`name`);--> statement-breakpoint
ALTER TABLE `model_settings` ADD `endpoint_id` integer REFERENCES endpoints(id) ON DELETE SET NULL;