DROP TABLE `experiments`;--> statement-breakpoint
DROP TABLE `jobs`;