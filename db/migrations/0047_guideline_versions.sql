CREATE TABLE `campaign_guideline_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`version` integer NOT NULL,
	`guidelines` text NOT NULL,
	`author_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_guideline_versions_identity` ON `campaign_guideline_versions` (`campaign_id`,`version`);--> statement-breakpoint
ALTER TABLE `adjudications` ADD `reason` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `guidelines_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `labels` ADD `guideline_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Every campaign made before versions were kept has its guidelines as version 1, by its creator, at its creation.
INSERT INTO `campaign_guideline_versions` (`campaign_id`, `version`, `guidelines`, `author_id`, `created_at`)
  SELECT `id`, 1, coalesce(`guidelines`, ''), `created_by`, `created_at` FROM `campaigns`;
