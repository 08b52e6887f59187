CREATE TABLE `adjudications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`note` text,
	`adjudicator_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `campaign_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`adjudicator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `adjudications_item_dimension` ON `adjudications` (`item_id`,`dimension`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`annotator_id` integer NOT NULL,
	`position` integer NOT NULL,
	`swapped` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`skip_reason` text,
	`draft` text,
	`ms_spent` integer DEFAULT 0 NOT NULL,
	`submission_id` text,
	`submitted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `campaign_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignments_item_annotator` ON `assignments` (`item_id`,`annotator_id`);--> statement-breakpoint
CREATE INDEX `assignments_annotator` ON `assignments` (`annotator_id`,`campaign_id`,`position`);--> statement-breakpoint
CREATE TABLE `campaign_annotators` (
	`campaign_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`campaign_id`, `user_id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE TABLE `campaign_dimensions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`position` integer NOT NULL,
	`key` text NOT NULL,
	`title` text NOT NULL,
	`question` text,
	`scale` text NOT NULL,
	`categories` text NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_dimensions_key` ON `campaign_dimensions` (`campaign_id`,`key`);--> statement-breakpoint
CREATE TABLE `campaign_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`position` integer NOT NULL,
	`external_id` text NOT NULL,
	`pal_sample_id` integer,
	`content` text NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`pal_sample_id`) REFERENCES `pal_samples`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaign_items_campaign` ON `campaign_items` (`campaign_id`,`position`);--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_items_external` ON `campaign_items` (`campaign_id`,`external_id`);--> statement-breakpoint
CREATE TABLE `campaign_outputs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`system_id` integer NOT NULL,
	`output` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `campaign_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`system_id`) REFERENCES `campaign_systems`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_outputs_item_system` ON `campaign_outputs` (`item_id`,`system_id`);--> statement-breakpoint
CREATE TABLE `campaign_systems` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`slot` text NOT NULL,
	`name` text NOT NULL,
	`experiment_id` integer,
	`method` text,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_systems_slot` ON `campaign_systems` (`campaign_id`,`slot`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`source` text NOT NULL,
	`dataset_id` integer,
	`guidelines` text,
	`per_item` integer DEFAULT 3 NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`tie_rule` text DEFAULT 'tie' NOT NULL,
	`config` text,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE TABLE `judge_labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`item_id` integer NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`judgments` text,
	`analysis` text,
	FOREIGN KEY (`run_id`) REFERENCES `judge_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `campaign_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judge_labels_run_item_dimension` ON `judge_labels` (`run_id`,`item_id`,`dimension`);--> statement-breakpoint
CREATE TABLE `judge_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`name` text NOT NULL,
	`origin` text NOT NULL,
	`model` text,
	`config` text,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE TABLE `label_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`label_id` integer NOT NULL,
	`value` text NOT NULL,
	`shown_value` text NOT NULL,
	`comment` text,
	`written_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `label_history_label` ON `label_history` (`label_id`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`assignment_id` integer NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`shown_value` text NOT NULL,
	`swapped` integer DEFAULT false NOT NULL,
	`comment` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_assignment_dimension` ON `labels` (`assignment_id`,`dimension`);