CREATE TABLE `judge_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`dimension` text NOT NULL,
	`error` text NOT NULL,
	`raw_reply` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `campaign_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judge_failures_run_item_dimension` ON `judge_failures` (`run_id`,`item_id`,`dimension`);--> statement-breakpoint
ALTER TABLE `judge_runs` ADD `finished_at` integer;--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `judge_run_id` integer REFERENCES judge_runs(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `llm_calls_judge_run` ON `llm_calls` (`judge_run_id`);