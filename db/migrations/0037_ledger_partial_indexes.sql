DROP INDEX `llm_calls_memory`;--> statement-breakpoint
DROP INDEX `llm_calls_experiment`;--> statement-breakpoint
DROP INDEX `llm_calls_job`;--> statement-breakpoint
DROP INDEX `llm_calls_judge_run`;--> statement-breakpoint
CREATE INDEX `llm_calls_memory` ON `llm_calls` (`memory_version_id`) WHERE "llm_calls"."memory_version_id" is not null;--> statement-breakpoint
CREATE INDEX `llm_calls_experiment` ON `llm_calls` (`experiment_id`) WHERE "llm_calls"."experiment_id" is not null;--> statement-breakpoint
CREATE INDEX `llm_calls_job` ON `llm_calls` (`job_id`) WHERE "llm_calls"."job_id" is not null;--> statement-breakpoint
CREATE INDEX `llm_calls_judge_run` ON `llm_calls` (`judge_run_id`) WHERE "llm_calls"."judge_run_id" is not null;