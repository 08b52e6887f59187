CREATE TABLE `login_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`ip` text NOT NULL,
	`success` integer NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `login_attempts_email_at` ON `login_attempts` (`email`,`at`);--> statement-breakpoint
CREATE INDEX `login_attempts_ip_at` ON `login_attempts` (`ip`,`at`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`role` text NOT NULL,
	`password_hash` text NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_login_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE TABLE `datasets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`language` text,
	`source` text,
	`stats` text,
	`report` text,
	`imported_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`imported_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `datasets_name_unique` ON `datasets` (`name`);--> statement-breakpoint
CREATE TABLE `pal_candidates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`topic_id` integer NOT NULL,
	`position` integer NOT NULL,
	`solution` text NOT NULL,
	`feedback` text NOT NULL,
	`extra` text,
	FOREIGN KEY (`topic_id`) REFERENCES `pal_topics`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pal_candidates_topic` ON `pal_candidates` (`topic_id`,`position`);--> statement-breakpoint
CREATE TABLE `pal_logs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sample_id` integer NOT NULL,
	`position` integer NOT NULL,
	`timestamp` text NOT NULL,
	`at` integer,
	`log_type` text,
	`content` text NOT NULL,
	`extra` text,
	FOREIGN KEY (`sample_id`) REFERENCES `pal_samples`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pal_logs_sample` ON `pal_logs` (`sample_id`,`position`);--> statement-breakpoint
CREATE TABLE `pal_requirement_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`aspect` text NOT NULL,
	`type_key` text NOT NULL,
	`requirement_type` text,
	`preference_pos` text,
	`preference_neg` text,
	FOREIGN KEY (`user_id`) REFERENCES `pal_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pal_req_types_user_key` ON `pal_requirement_types` (`user_id`,`type_key`);--> statement-breakpoint
CREATE TABLE `pal_samples` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`sample_key` text NOT NULL,
	`split` text NOT NULL,
	`position` integer NOT NULL,
	`seq` integer NOT NULL,
	`dialogue_timestamp` text NOT NULL,
	`dialogue_at` integer,
	`situation` text,
	`log_count` integer DEFAULT 0 NOT NULL,
	`turn_count` integer DEFAULT 0 NOT NULL,
	`topic_count` integer DEFAULT 0 NOT NULL,
	`extra` text,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `pal_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pal_samples_user_key` ON `pal_samples` (`user_id`,`sample_key`);--> statement-breakpoint
CREATE INDEX `pal_samples_dataset` ON `pal_samples` (`dataset_id`,`split`);--> statement-breakpoint
CREATE TABLE `pal_topics` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sample_id` integer NOT NULL,
	`topic_key` text NOT NULL,
	`position` integer NOT NULL,
	`user_query` text NOT NULL,
	`implicit_needs` text NOT NULL,
	`requirement` text NOT NULL,
	`solution_pos` text NOT NULL,
	`solution_neg` text NOT NULL,
	`requirement_type_key` text,
	`framework` text,
	`solution_preference` text,
	`dialogue_template` text,
	`extra` text,
	FOREIGN KEY (`sample_id`) REFERENCES `pal_samples`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pal_topics_sample_key` ON `pal_topics` (`sample_id`,`topic_key`);--> statement-breakpoint
CREATE TABLE `pal_turns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sample_id` integer NOT NULL,
	`turn_key` text NOT NULL,
	`position` integer NOT NULL,
	`topic_index` integer,
	`user_action` text NOT NULL,
	`user_action_code` text,
	`user_content` text NOT NULL,
	`assistant_action` text NOT NULL,
	`assistant_action_code` text,
	`assistant_content` text NOT NULL,
	`extra` text,
	FOREIGN KEY (`sample_id`) REFERENCES `pal_samples`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pal_turns_sample` ON `pal_turns` (`sample_id`,`position`);--> statement-breakpoint
CREATE TABLE `pal_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`user_key` text NOT NULL,
	`position` integer NOT NULL,
	`name` text,
	`background` text,
	`profile_raw` text,
	`extra` text,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pal_users_dataset_key` ON `pal_users` (`dataset_id`,`user_key`);--> statement-breakpoint
CREATE TABLE `hc_dialogues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`dialogue_key` text NOT NULL,
	`split` text NOT NULL,
	`position` integer NOT NULL,
	`type` text,
	`metadata` text,
	`turn_count` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `hc_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hc_dialogues_user_key_split` ON `hc_dialogues` (`user_id`,`dialogue_key`,`split`);--> statement-breakpoint
CREATE INDEX `hc_dialogues_dataset` ON `hc_dialogues` (`dataset_id`);--> statement-breakpoint
CREATE TABLE `hc_qa` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`split` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`question` text NOT NULL,
	`personalized_answer` text NOT NULL,
	`general_answer` text NOT NULL,
	`dialogue_ids` text,
	`metadata` text,
	`extra` text,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `hc_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hc_qa_dataset` ON `hc_qa` (`dataset_id`,`split`,`type`);--> statement-breakpoint
CREATE INDEX `hc_qa_user` ON `hc_qa` (`user_id`);--> statement-breakpoint
CREATE INDEX `hc_qa_dataset_position` ON `hc_qa` (`dataset_id`,`position`);--> statement-breakpoint
CREATE TABLE `hc_turns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dialogue_id` integer NOT NULL,
	`position` integer NOT NULL,
	`user` text NOT NULL,
	`assistant` text NOT NULL,
	`extra` text,
	FOREIGN KEY (`dialogue_id`) REFERENCES `hc_dialogues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hc_turns_dialogue` ON `hc_turns` (`dialogue_id`,`position`);--> statement-breakpoint
CREATE TABLE `hc_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`user_key` text NOT NULL,
	`position` integer NOT NULL,
	`dialogue_count` integer DEFAULT 0 NOT NULL,
	`qa_count` integer DEFAULT 0 NOT NULL,
	`turn_count` integer DEFAULT 0 NOT NULL,
	`persona_dialogues` integer DEFAULT 0 NOT NULL,
	`profile_dialogues` integer DEFAULT 0 NOT NULL,
	`schedule_dialogues` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hc_users_dataset_key` ON `hc_users` (`dataset_id`,`user_key`);--> statement-breakpoint
CREATE TABLE `llm_cache` (
	`key` text PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`request` text NOT NULL,
	`response` text NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `llm_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer,
	`origin` text,
	`role` text NOT NULL,
	`model` text NOT NULL,
	`cache_key` text,
	`cache_hit` integer DEFAULT false NOT NULL,
	`attempt` integer DEFAULT 1 NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`cost_usd` real,
	`latency_ms` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `llm_calls_run` ON `llm_calls` (`run_id`);--> statement-breakpoint
CREATE INDEX `llm_calls_origin` ON `llm_calls` (`origin`);--> statement-breakpoint
CREATE TABLE `model_settings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`base_url` text,
	`api_key` text,
	`model` text NOT NULL,
	`params` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `model_settings_name_unique` ON `model_settings` (`name`);--> statement-breakpoint
CREATE TABLE `experiments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`dataset_id` integer NOT NULL,
	`config` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`experiment_id` integer NOT NULL,
	`replicate` integer DEFAULT 0 NOT NULL,
	`method` text NOT NULL,
	`task` text NOT NULL,
	`item_key` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`output` text,
	`retrieved` text,
	`scores` text,
	`starred` integer DEFAULT false NOT NULL,
	`updated_at` integer,
	FOREIGN KEY (`experiment_id`) REFERENCES `experiments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_identity` ON `jobs` (`experiment_id`,`replicate`,`method`,`task`,`item_key`);--> statement-breakpoint
CREATE INDEX `jobs_status` ON `jobs` (`experiment_id`,`status`);--> statement-breakpoint
CREATE TABLE `memory_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`dataset_id` integer NOT NULL,
	`user_key` text NOT NULL,
	`method` text NOT NULL,
	`settings_key` text NOT NULL,
	`session_seq` integer NOT NULL,
	`kind` text NOT NULL,
	`key` text,
	`content` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memory_lookup` ON `memory_entries` (`dataset_id`,`user_key`,`method`,`settings_key`,`session_seq`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`annotator_id` integer NOT NULL,
	`swapped` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`skip_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `campaign_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignments_item_annotator` ON `assignments` (`item_id`,`annotator_id`);--> statement-breakpoint
CREATE TABLE `campaign_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`position` integer NOT NULL,
	`payload` text NOT NULL,
	`hidden` text,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campaign_items_campaign` ON `campaign_items` (`campaign_id`,`position`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`dataset_id` integer,
	`guidelines` text,
	`per_item` integer DEFAULT 3 NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`config` text,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`dataset_id`) REFERENCES `datasets`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`assignment_id` integer NOT NULL,
	`dimension` text NOT NULL,
	`value` text NOT NULL,
	`comment` text,
	`ms_spent` integer,
	`adjudicated` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_assignment_dimension` ON `labels` (`assignment_id`,`dimension`);--> statement-breakpoint
CREATE INDEX `labels_assignment` ON `labels` (`assignment_id`);