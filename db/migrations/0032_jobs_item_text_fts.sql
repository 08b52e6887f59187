-- The Items table's text filter: a full-text index (FTS5) of each job's title (the topic or question) and
-- its replies (every text value of its output: dialogue turns, answers), kept by triggers as jobs are
-- written. Contentless (the text stays in jobs; only the index is stored); rowid = jobs.id; `exp` holds
-- "<e<experiment id>>" so a search is scoped to one experiment inside the index. Trigram tokens: PAL-Set is
-- Chinese, written without spaces, so words are found as substrings of 3 characters or more.
-- The titles of the jobs written before (lib/experiments/item-titles.ts writes them for new jobs; here the
-- clip is by characters, not on a word): PAL-Set "<user>/<sample>/<topic>", HiCUPID "<user>/<split>/<position>".
-- Before the triggers, so the index below is built once with them.
UPDATE jobs SET title = x.title FROM (
  SELECT j.id, CASE WHEN length(trim(replace(replace(replace(t.user_query, char(13), ' '), char(10), ' '), char(9), ' '))) > 120 THEN substr(trim(replace(replace(replace(t.user_query, char(13), ' '), char(10), ' '), char(9), ' ')), 1, 119) || '…' ELSE trim(replace(replace(replace(t.user_query, char(13), ' '), char(10), ' '), char(9), ' ')) END || ' (user ' || u.user_key || ')' AS title
  FROM jobs j JOIN experiments e ON e.id = j.experiment_id
  JOIN pal_users u ON u.dataset_id = e.dataset_id AND u.user_key = substr(j.item_key, 1, instr(j.item_key, '/') - 1)
  JOIN pal_samples s ON s.user_id = u.id AND s.sample_key = substr(substr(j.item_key, instr(j.item_key, '/') + 1), 1, instr(substr(j.item_key, instr(j.item_key, '/') + 1), '/') - 1)
  JOIN pal_topics t ON t.sample_id = s.id AND t.topic_key = substr(substr(j.item_key, instr(j.item_key, '/') + 1), instr(substr(j.item_key, instr(j.item_key, '/') + 1), '/') + 1)
  WHERE j.title IS NULL
) x WHERE jobs.id = x.id;
--> statement-breakpoint
UPDATE jobs SET title = x.title FROM (
  SELECT j.id, CASE WHEN length(trim(replace(replace(replace(q.question, char(13), ' '), char(10), ' '), char(9), ' '))) > 120 THEN substr(trim(replace(replace(replace(q.question, char(13), ' '), char(10), ' '), char(9), ' ')), 1, 119) || '…' ELSE trim(replace(replace(replace(q.question, char(13), ' '), char(10), ' '), char(9), ' ')) END || ' (user ' || u.user_key || ')' AS title
  FROM jobs j JOIN experiments e ON e.id = j.experiment_id
  JOIN hc_users u ON u.dataset_id = e.dataset_id AND u.user_key = substr(j.item_key, 1, instr(j.item_key, '/') - 1)
  JOIN hc_qa q ON q.user_id = u.id AND q.split = substr(substr(j.item_key, instr(j.item_key, '/') + 1), 1, instr(substr(j.item_key, instr(j.item_key, '/') + 1), '/') - 1) AND q.position = CAST(substr(substr(j.item_key, instr(j.item_key, '/') + 1), instr(substr(j.item_key, instr(j.item_key, '/') + 1), '/') + 1) AS INTEGER)
  WHERE j.title IS NULL AND substr(substr(j.item_key, instr(j.item_key, '/') + 1), instr(substr(j.item_key, instr(j.item_key, '/') + 1), '/') + 1) GLOB '[0-9]*'
) x WHERE jobs.id = x.id;
--> statement-breakpoint
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
-- The jobs written before, with their titles and replies.
INSERT INTO job_text (rowid, exp, title, replies)
  SELECT j.id, '<e' || j.experiment_id || '>', j.title,
    (SELECT group_concat(t.value, ' ') FROM json_tree(CASE WHEN json_valid(j.output) THEN j.output ELSE 'null' END) t WHERE t.type = 'text' AND t.key IS NOT 'role')
  FROM jobs j;
