CREATE TABLE `case_marks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`experiment_id` integer NOT NULL,
	`task` text NOT NULL,
	`item_key` text NOT NULL,
	`block` text NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`quote` text NOT NULL,
	`colour` text NOT NULL,
	`note` text,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `case_marks_item` ON `case_marks` (`experiment_id`,`task`,`item_key`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `star_note` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `star_tags` text;