CREATE TABLE `experiment_memory_versions` (
	`experiment_id` integer NOT NULL,
	`method` text NOT NULL,
	`version_id` integer NOT NULL,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`version_id`) REFERENCES `memory_versions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `experiment_memory_versions_identity` ON `experiment_memory_versions` (`experiment_id`,`method`,`version_id`);