CREATE TABLE `participant_quality_reports` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`computed_at` integer NOT NULL,
	`ms` integer NOT NULL,
	`report` text NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `campaign_items` ADD `attention` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `participants_version` integer DEFAULT 0 NOT NULL;