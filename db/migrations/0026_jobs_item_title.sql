ALTER TABLE `jobs` ADD `title` text;--> statement-breakpoint
CREATE INDEX `jobs_untitled` ON `jobs` (`experiment_id`) WHERE title IS NULL;