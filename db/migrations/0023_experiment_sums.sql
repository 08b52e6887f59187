CREATE TABLE `experiment_groups` (
	`experiment_id` integer NOT NULL,
	`method` text NOT NULL,
	`task` text NOT NULL,
	`replicate` integer NOT NULL,
	`phase` integer NOT NULL,
	`queued` integer DEFAULT 0 NOT NULL,
	`running` integer DEFAULT 0 NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`cancelled` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`scored` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`experiment_id`, `method`, `task`, `replicate`, `phase`),
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `experiment_ledger_sums` (
	`experiment_id` integer NOT NULL,
	`method` text NOT NULL,
	`role` text NOT NULL,
	`ok` integer DEFAULT 0 NOT NULL,
	`hits` integer DEFAULT 0 NOT NULL,
	`requests` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`paid_prompt_tokens` integer DEFAULT 0 NOT NULL,
	`paid_completion_tokens` integer DEFAULT 0 NOT NULL,
	`bad` integer DEFAULT 0 NOT NULL,
	`bad_prompt_tokens` integer DEFAULT 0 NOT NULL,
	`bad_completion_tokens` integer DEFAULT 0 NOT NULL,
	`unknown` integer DEFAULT 0 NOT NULL,
	`cut_off` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`experiment_id`, `method`, `role`),
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `experiment_score_sums` (
	`experiment_id` integer NOT NULL,
	`method` text NOT NULL,
	`task` text NOT NULL,
	`replicate` integer NOT NULL,
	`phase` integer NOT NULL,
	`key` text NOT NULL,
	`value` real DEFAULT 0 NOT NULL,
	PRIMARY KEY(`experiment_id`, `method`, `task`, `replicate`, `phase`, `key`),
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `experiments` ADD `finished_at_start` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `score` real;--> statement-breakpoint
CREATE INDEX `jobs_starred` ON `jobs` (`experiment_id`) WHERE starred = 1;