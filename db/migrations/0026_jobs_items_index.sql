DROP INDEX `jobs_score`;--> statement-breakpoint
CREATE INDEX `jobs_items` ON `jobs` (`experiment_id`,`score`,`task`,`method`,`status`,`replicate`,`item_key`,`starred`);