CREATE TABLE `app_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` integer,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `experiments` ADD `planned_jobs` integer;--> statement-breakpoint
CREATE INDEX `experiments_created_by` ON `experiments` (`created_by`,`created_at`);