ALTER TABLE `campaigns` ADD `annotator_title` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `blinding_override` text;