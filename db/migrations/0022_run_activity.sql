CREATE TABLE `run_activity` (
	`experiment_id` integer NOT NULL,
	`worker` text NOT NULL,
	`calls_in_flight` integer NOT NULL,
	`oldest_started_at` integer,
	`timeouts` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `run_activity_identity` ON `run_activity` (`experiment_id`,`worker`);