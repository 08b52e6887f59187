ALTER TABLE `experiments` ADD `pairwise_tie_margin` real;--> statement-breakpoint
ALTER TABLE `experiments` ADD `pairwise_tie_margin_source` text;