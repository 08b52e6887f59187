CREATE TABLE `llm_batches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`judge_run_id` integer,
	`config` text NOT NULL,
	`endpoint` text NOT NULL,
	`model` text NOT NULL,
	`remote_id` text,
	`input_file_id` text,
	`output_file_id` text,
	`status` text DEFAULT 'validating' NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`completed` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`judge_run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `llm_batches_judge_run` ON `llm_batches` (`judge_run_id`);