CREATE TABLE `memory_ledger_sums` (
	`version_id` integer NOT NULL,
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
	PRIMARY KEY(`version_id`, `role`),
	FOREIGN KEY (`version_id`) REFERENCES `memory_versions`(`id`) ON UPDATE no action ON DELETE cascade
);
