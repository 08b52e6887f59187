ALTER TABLE `llm_batches` ADD `lines` text;--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `experiment_id` integer;--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `usage_unknown` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `llm_calls_experiment` ON `llm_calls` (`experiment_id`);