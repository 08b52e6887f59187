-- The Items table's text filter: a full-text index (FTS5) of each job's title (the topic or question) and
-- its replies (every text value of its output: dialogue turns, answers), kept by triggers as jobs are
-- written. Contentless (the text stays in jobs; only the index is stored); rowid = jobs.id; `exp` holds
-- "<e<experiment id>>" so a search is scoped to one experiment inside the index. Trigram tokens: PAL-Set is
-- Chinese, written without spaces, so words are found as substrings of 3 characters or more.
CREATE VIRTUAL TABLE job_text USING fts5(exp, title, replies, content='', contentless_delete=1, tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
CREATE TRIGGER jobs_text_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO job_text (rowid, exp, title, replies) VALUES (new.id, '<e' || new.experiment_id || '>', new.title,
    (SELECT group_concat(value, ' ') FROM json_tree(CASE WHEN json_valid(new.output) THEN new.output ELSE 'null' END) WHERE type = 'text' AND key IS NOT 'role'));
END;
--> statement-breakpoint
CREATE TRIGGER jobs_text_update AFTER UPDATE OF output, title ON jobs BEGIN
  DELETE FROM job_text WHERE rowid = old.id;
  INSERT INTO job_text (rowid, exp, title, replies) VALUES (new.id, '<e' || new.experiment_id || '>', new.title,
    (SELECT group_concat(value, ' ') FROM json_tree(CASE WHEN json_valid(new.output) THEN new.output ELSE 'null' END) WHERE type = 'text' AND key IS NOT 'role'));
END;
--> statement-breakpoint
CREATE TRIGGER jobs_text_delete AFTER DELETE ON jobs BEGIN
  DELETE FROM job_text WHERE rowid = old.id;
END;
--> statement-breakpoint
-- The jobs written before: their replies now (their titles are filled later, through the update trigger).
INSERT INTO job_text (rowid, exp, title, replies)
  SELECT j.id, '<e' || j.experiment_id || '>', j.title,
    (SELECT group_concat(t.value, ' ') FROM json_tree(CASE WHEN json_valid(j.output) THEN j.output ELSE 'null' END) t WHERE t.type = 'text' AND t.key IS NOT 'role')
  FROM jobs j;
