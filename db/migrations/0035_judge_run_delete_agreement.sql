-- Custom migration (issue 30.5): deleting a judge run must make its campaign's agreement report stale.
-- The cascade deletes the run's judge_labels after the run itself is gone, so their delete trigger
-- (0030) finds no judge_runs row to name the campaign and bumped nothing. The run's own delete trigger
-- knows the campaign (deleting a single judge label still bumps through 0030's trigger).
CREATE TRIGGER `judge_runs_agreement_delete` AFTER DELETE ON `judge_runs` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = OLD.campaign_id;
END;
