ALTER TABLE `llm_batches` ADD `experiment_id` integer REFERENCES experiments(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `llm_batches_experiment` ON `llm_batches` (`experiment_id`);
