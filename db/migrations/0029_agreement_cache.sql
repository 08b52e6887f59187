CREATE TABLE `agreement_reports` (
	`campaign_id` integer PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`computed_at` integer NOT NULL,
	`ms` integer NOT NULL,
	`report` text NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `campaigns` ADD `agreement_version` integer DEFAULT 0 NOT NULL;