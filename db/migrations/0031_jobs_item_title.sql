ALTER TABLE `jobs` ADD `title` text;--> statement-breakpoint
CREATE INDEX `jobs_title` ON `jobs` (`experiment_id`,`title`);