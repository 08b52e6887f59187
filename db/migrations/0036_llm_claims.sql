CREATE TABLE `llm_claims` (
	`key` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`lease_until` integer NOT NULL
);
