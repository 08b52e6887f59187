DROP TABLE `assignments`;--> statement-breakpoint
DROP TABLE `campaign_items`;--> statement-breakpoint
DROP TABLE `campaigns`;--> statement-breakpoint
DROP TABLE `labels`;