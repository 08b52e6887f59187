CREATE TABLE `experiments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`dataset_id` integer NOT NULL,
	`dataset_hash` text NOT NULL,
	`config` text NOT NULL,
	`config_hash` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`error` text,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `job_scores` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` integer NOT NULL,
	`scorer` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`values` text NOT NULL,
	`detail` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_scores_identity` ON `job_scores` (`job_id`,`scorer`,`version`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`experiment_id` integer NOT NULL,
	`replicate` integer DEFAULT 0 NOT NULL,
	`method` text NOT NULL,
	`task` text NOT NULL,
	`item_key` text NOT NULL,
	`user_key` text,
	`phase` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`worker` text,
	`started_at` integer,
	`lease_until` integer,
	`finished_at` integer,
	`error` text,
	`input` text,
	`output` text,
	`retrieved` text,
	`usage` text,
	`starred` integer DEFAULT false NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_identity` ON `jobs` (`experiment_id`,`replicate`,`method`,`task`,`item_key`);--> statement-breakpoint
CREATE INDEX `jobs_status` ON `jobs` (`experiment_id`,`status`,`phase`);