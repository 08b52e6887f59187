ALTER TABLE `campaign_items` ADD `title` text;--> statement-breakpoint
UPDATE `campaign_items` SET `title` = substr(coalesce(
  json_extract(`content`, '$.topic') || CASE WHEN instr(`external_id`, '/') > 0 THEN ' (user ' || substr(`external_id`, 1, instr(`external_id`, '/') - 1) || ')' ELSE '' END,
  json_extract(`content`, '$.question'),
  `external_id`), 1, 120) WHERE `title` IS NULL;
