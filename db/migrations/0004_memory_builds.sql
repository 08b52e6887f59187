CREATE TABLE `memory_builds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`method` text NOT NULL,
	`users` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`sessions_total` integer DEFAULT 0 NOT NULL,
	`sessions_done` integer DEFAULT 0 NOT NULL,
	`current` text,
	`error` text,
	`pid` integer,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memory_builds_dataset` ON `memory_builds` (`dataset_id`);