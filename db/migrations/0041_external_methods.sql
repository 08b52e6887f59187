CREATE TABLE `external_methods` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`label` text NOT NULL,
	`url` text NOT NULL,
	`headers_enc` text,
	`timeout_ms` integer DEFAULT 120000 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `external_methods_name_unique` ON `external_methods` (`name`);