-- Experiments reshaped for issue 9 (the old tables were never used, so they are dropped and recreated):
-- the data set restricted with a content hash, a hashed config, job leases and cancelled/skipped states,
-- and scores in their own rows per scorer and version.
DROP TABLE `experiments`;--> statement-breakpoint
DROP TABLE `jobs`;--> statement-breakpoint
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
CREATE INDEX `jobs_status` ON `jobs` (`experiment_id`,`status`,`phase`);--> statement-breakpoint
-- A data set that an experiment used cannot be deleted or replaced under it: the foreign key restricts the
-- delete; these triggers say why in plain words (an import with --replace empties pal_users of the data set).
CREATE TRIGGER `datasets_in_use_no_delete` BEFORE DELETE ON `datasets`
WHEN EXISTS (SELECT 1 FROM `experiments` WHERE `dataset_id` = OLD.`id`)
BEGIN
  SELECT RAISE(ABORT, 'data set is used by an experiment; delete the experiment first or import under another name');
END;--> statement-breakpoint
CREATE TRIGGER `pal_users_dataset_in_use` BEFORE DELETE ON `pal_users`
WHEN EXISTS (SELECT 1 FROM `experiments` WHERE `dataset_id` = OLD.`dataset_id`)
BEGIN
  SELECT RAISE(ABORT, 'data set is used by an experiment; delete the experiment first or import under another name');
END;
--> statement-breakpoint
CREATE TRIGGER `hc_users_dataset_in_use` BEFORE DELETE ON `hc_users`
WHEN EXISTS (SELECT 1 FROM `experiments` WHERE `dataset_id` = OLD.`dataset_id`)
BEGIN
  SELECT RAISE(ABORT, 'data set is used by an experiment; delete the experiment first or import under another name');
END;
