ALTER TABLE `memory_versions` ADD `builder` text;--> statement-breakpoint
ALTER TABLE `memory_versions` ADD `lease_until` integer;