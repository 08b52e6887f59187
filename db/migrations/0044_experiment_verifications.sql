CREATE TABLE `experiment_verifications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`experiment_id` integer NOT NULL,
	`verified_at` integer NOT NULL,
	`jobs` integer NOT NULL,
	`identical` integer NOT NULL,
	`ok` integer NOT NULL,
	`report` text NOT NULL,
	`verified_by` integer,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`verified_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `experiment_verifications_experiment` ON `experiment_verifications` (`experiment_id`,`verified_at`);