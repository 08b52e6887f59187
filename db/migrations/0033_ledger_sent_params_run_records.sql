CREATE TABLE `experiment_run_records` (
	`experiment_id` integer PRIMARY KEY NOT NULL,
	`record` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `temperature` real;--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `top_p` real;--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `max_tokens` integer;--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `json_mode` text;--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `served_model` text;