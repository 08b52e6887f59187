CREATE TABLE `experiment_imports` (
	`experiment_id` integer PRIMARY KEY NOT NULL,
	`run_uid` text NOT NULL,
	`source` text NOT NULL,
	`source_experiment_id` integer NOT NULL,
	`exported_at` integer NOT NULL,
	`exported_version` text NOT NULL,
	`dataset_from_bundle` integer DEFAULT false NOT NULL,
	`imported_at` integer NOT NULL,
	`imported_by` integer,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`imported_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `experiment_imports_run_uid_unique` ON `experiment_imports` (`run_uid`);