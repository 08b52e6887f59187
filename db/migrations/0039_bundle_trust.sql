CREATE TABLE `bundle_replies` (
	`experiment_id` integer NOT NULL,
	`key` text NOT NULL,
	`endpoint` text NOT NULL,
	`model` text NOT NULL,
	`request` text NOT NULL,
	`response` text NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`cached_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`experiment_id`, `key`),
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `bundle_vectors` (
	`experiment_id` integer NOT NULL,
	`key` text NOT NULL,
	`model` text NOT NULL,
	`dimensions` integer NOT NULL,
	`vector` blob NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`experiment_id`, `key`),
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `embedding_uses` (
	`scope` text NOT NULL,
	`key` text NOT NULL,
	PRIMARY KEY(`scope`, `key`)
);
--> statement-breakpoint
DROP INDEX `experiment_imports_run_uid_unique`;--> statement-breakpoint
ALTER TABLE `experiment_imports` ADD `content_digest` text;--> statement-breakpoint
ALTER TABLE `experiment_imports` ADD `source_status` text;--> statement-breakpoint
CREATE UNIQUE INDEX `experiment_imports_content_digest` ON `experiment_imports` (`content_digest`);--> statement-breakpoint
CREATE INDEX `experiment_imports_run_uid` ON `experiment_imports` (`run_uid`);