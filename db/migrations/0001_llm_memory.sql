DROP TABLE `llm_cache`;--> statement-breakpoint
DROP TABLE `llm_calls`;--> statement-breakpoint
DROP TABLE `model_settings`;--> statement-breakpoint
DROP TABLE `memory_entries`;--> statement-breakpoint
CREATE TABLE `embedding_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`dimensions` integer NOT NULL,
	`vector` blob NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `llm_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`endpoint` text NOT NULL,
	`model` text NOT NULL,
	`request` text NOT NULL,
	`response` text NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`cached_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `llm_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`memory_version_id` integer,
	`job_id` integer,
	`purpose` text NOT NULL,
	`role` text NOT NULL,
	`config` text NOT NULL,
	`endpoint` text NOT NULL,
	`model` text NOT NULL,
	`cache_key` text,
	`cache_hit` integer DEFAULT false NOT NULL,
	`replicate` integer DEFAULT 0 NOT NULL,
	`attempt` integer DEFAULT 1 NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`raw_reply` text,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`cached_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`latency_ms` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`memory_version_id`) REFERENCES `memory_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `llm_calls_memory` ON `llm_calls` (`memory_version_id`);--> statement-breakpoint
CREATE INDEX `llm_calls_job` ON `llm_calls` (`job_id`);--> statement-breakpoint
CREATE TABLE `model_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`base_url` text,
	`api_key_enc` text,
	`model` text,
	`params` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `model_settings_name_unique` ON `model_settings` (`name`);--> statement-breakpoint
CREATE TABLE `memory_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`version_id` integer NOT NULL,
	`step_id` integer NOT NULL,
	`expired_by_step_id` integer,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`content` text NOT NULL,
	`valid_from_seq` integer NOT NULL,
	`valid_to_seq` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`version_id`) REFERENCES `memory_versions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`step_id`) REFERENCES `memory_steps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`expired_by_step_id`) REFERENCES `memory_steps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `memory_entries_lookup` ON `memory_entries` (`version_id`,`kind`,`key`);--> statement-breakpoint
CREATE INDEX `memory_entries_step` ON `memory_entries` (`step_id`);--> statement-breakpoint
CREATE INDEX `memory_entries_expired_by` ON `memory_entries` (`expired_by_step_id`);--> statement-breakpoint
CREATE TABLE `memory_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`version_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`session_key` text NOT NULL,
	`status` text DEFAULT 'building' NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`version_id`) REFERENCES `memory_versions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memory_steps_version_seq` ON `memory_steps` (`version_id`,`seq`);--> statement-breakpoint
CREATE TABLE `memory_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`user_key` text NOT NULL,
	`method` text NOT NULL,
	`settings_key` text NOT NULL,
	`settings` text NOT NULL,
	`language` text NOT NULL,
	`status` text DEFAULT 'building' NOT NULL,
	`sessions_total` integer DEFAULT 0 NOT NULL,
	`sessions_done` integer DEFAULT 0 NOT NULL,
	`error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memory_versions_identity` ON `memory_versions` (`dataset_id`,`user_key`,`method`,`settings_key`);