-- A data set that an experiment used cannot be deleted or replaced under it: the foreign key restricts the
-- delete; these triggers say why in plain words (an import with --replace empties pal_users of the data set).
CREATE TRIGGER `datasets_in_use_no_delete` BEFORE DELETE ON `datasets`
WHEN EXISTS (SELECT 1 FROM `experiments` WHERE `dataset_id` = OLD.`id`)
BEGIN
  SELECT RAISE(ABORT, 'data set is used by an experiment; delete the experiment first or import under another name');
END;--> statement-breakpoint
CREATE TRIGGER `pal_users_dataset_in_use` BEFORE DELETE ON `pal_users`
WHEN EXISTS (SELECT 1 FROM `experiments` WHERE `dataset_id` = OLD.`dataset_id`)
BEGIN
  SELECT RAISE(ABORT, 'data set is used by an experiment; delete the experiment first or import under another name');
END;
