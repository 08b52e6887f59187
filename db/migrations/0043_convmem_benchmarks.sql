CREATE TABLE `cm_qa` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`thread_id` integer NOT NULL,
	`item_key` text NOT NULL,
	`position` integer NOT NULL,
	`question` text NOT NULL,
	`answer` text NOT NULL,
	`category` integer,
	`question_type` text,
	`evidence` text,
	`adversarial_answer` text,
	`question_date` text,
	`extra` text,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`thread_id`) REFERENCES `cm_threads`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cm_qa_dataset_key` ON `cm_qa` (`dataset_id`,`item_key`);--> statement-breakpoint
CREATE INDEX `cm_qa_dataset_position` ON `cm_qa` (`dataset_id`,`position`);--> statement-breakpoint
CREATE INDEX `cm_qa_thread` ON `cm_qa` (`thread_id`);--> statement-breakpoint
CREATE TABLE `cm_sessions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`session_key` text NOT NULL,
	`hash` text NOT NULL,
	`turn_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cm_sessions_dataset_key_hash` ON `cm_sessions` (`dataset_id`,`session_key`,`hash`);--> statement-breakpoint
CREATE TABLE `cm_threads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`thread_key` text NOT NULL,
	`position` integer NOT NULL,
	`speaker_a` text,
	`speaker_b` text,
	`session_count` integer DEFAULT 0 NOT NULL,
	`turn_count` integer DEFAULT 0 NOT NULL,
	`qa_count` integer DEFAULT 0 NOT NULL,
	`extra` text,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cm_threads_dataset_key` ON `cm_threads` (`dataset_id`,`thread_key`);--> statement-breakpoint
CREATE INDEX `cm_threads_dataset_position` ON `cm_threads` (`dataset_id`,`position`);--> statement-breakpoint
CREATE TABLE `cm_timeline` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`thread_id` integer NOT NULL,
	`position` integer NOT NULL,
	`session_id` integer NOT NULL,
	`label` text NOT NULL,
	`date` text,
	FOREIGN KEY (`thread_id`) REFERENCES `cm_threads`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `cm_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cm_timeline_thread` ON `cm_timeline` (`thread_id`,`position`);--> statement-breakpoint
CREATE INDEX `cm_timeline_session` ON `cm_timeline` (`session_id`);--> statement-breakpoint
CREATE TABLE `cm_turns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` integer NOT NULL,
	`position` integer NOT NULL,
	`speaker` text NOT NULL,
	`text` text NOT NULL,
	`dia_id` text,
	`has_answer` integer,
	`extra` text,
	FOREIGN KEY (`session_id`) REFERENCES `cm_sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cm_turns_session` ON `cm_turns` (`session_id`,`position`);