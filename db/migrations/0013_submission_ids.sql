CREATE TABLE `assignment_submissions` (
	`assignment_id` integer NOT NULL,
	`submission_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`assignment_id`, `submission_id`),
	FOREIGN KEY (`assignment_id`) REFERENCES `assignments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The id each assignment accepted last was all that was kept so far: remember it too.
INSERT INTO `assignment_submissions` (`assignment_id`, `submission_id`) SELECT `id`, `submission_id` FROM `assignments` WHERE `submission_id` IS NOT NULL;
