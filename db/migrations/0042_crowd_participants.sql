CREATE TABLE `participants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`code` text NOT NULL,
	`prolific_pid` text NOT NULL,
	`study_id` text,
	`session_id` text,
	`browser_key` text NOT NULL,
	`consented_at` integer,
	`status` text DEFAULT 'active' NOT NULL,
	`finished_at` integer,
	`excluded` integer DEFAULT false NOT NULL,
	`excluded_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `participants_user_id_unique` ON `participants` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `participants_campaign_pid` ON `participants` (`campaign_id`,`prolific_pid`);--> statement-breakpoint
CREATE UNIQUE INDEX `participants_code` ON `participants` (`code`);--> statement-breakpoint
ALTER TABLE `assignments` ADD `held_until` integer;--> statement-breakpoint
CREATE INDEX `assignments_item_status` ON `assignments` (`item_id`,`status`);--> statement-breakpoint
ALTER TABLE `campaign_items` ADD `gold` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `assignment` text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `join_token` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `crowd` text;--> statement-breakpoint
CREATE UNIQUE INDEX `campaigns_join_token_unique` ON `campaigns` (`join_token`);