-- Custom migration: triggers that bump campaigns.agreement_version on every write the agreement report
-- reads (lib/annotation/agreement-cache.ts), so a cached report knows it is out of date in O(1).
CREATE TRIGGER `labels_agreement_insert` AFTER INSERT ON `labels` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM assignments WHERE id = NEW.assignment_id);
END;
--> statement-breakpoint
CREATE TRIGGER `labels_agreement_update` AFTER UPDATE ON `labels` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM assignments WHERE id = NEW.assignment_id);
END;
--> statement-breakpoint
CREATE TRIGGER `labels_agreement_delete` AFTER DELETE ON `labels` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM assignments WHERE id = OLD.assignment_id);
END;
--> statement-breakpoint
CREATE TRIGGER `adjudications_agreement_insert` AFTER INSERT ON `adjudications` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM campaign_items WHERE id = NEW.item_id);
END;
--> statement-breakpoint
CREATE TRIGGER `adjudications_agreement_update` AFTER UPDATE ON `adjudications` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM campaign_items WHERE id = NEW.item_id);
END;
--> statement-breakpoint
CREATE TRIGGER `adjudications_agreement_delete` AFTER DELETE ON `adjudications` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM campaign_items WHERE id = OLD.item_id);
END;
--> statement-breakpoint
CREATE TRIGGER `judge_labels_agreement_insert` AFTER INSERT ON `judge_labels` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM judge_runs WHERE id = NEW.run_id);
END;
--> statement-breakpoint
CREATE TRIGGER `judge_labels_agreement_update` AFTER UPDATE ON `judge_labels` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM judge_runs WHERE id = NEW.run_id);
END;
--> statement-breakpoint
CREATE TRIGGER `judge_labels_agreement_delete` AFTER DELETE ON `judge_labels` BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = (SELECT campaign_id FROM judge_runs WHERE id = OLD.run_id);
END;
--> statement-breakpoint
CREATE TRIGGER `assignments_agreement_status` AFTER UPDATE OF status, ms_spent ON `assignments` WHEN OLD.status IS NOT NEW.status OR (NEW.status = 'done' AND OLD.ms_spent IS NOT NEW.ms_spent) BEGIN
  UPDATE campaigns SET agreement_version = agreement_version + 1 WHERE id = NEW.campaign_id;
END;
