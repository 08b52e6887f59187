-- Keeps experiment_groups (status counts per method × task × replicate × phase) and experiment_ledger_sums
-- (the jobs' ledger per method and role) as jobs and ledger rows are written, by whatever code writes them,
-- and fills both for the experiments that existed before. The score sums (experiment_score_sums, jobs.score)
-- of existing experiments are filled by lib/experiments/aggregates.ts (rebuildScoreSums) when first read.
CREATE TRIGGER jobs_groups_insert AFTER INSERT ON jobs BEGIN
  INSERT INTO experiment_groups (experiment_id, method, task, replicate, phase, queued, running, done, failed, cancelled, skipped)
  VALUES (new.experiment_id, new.method, new.task, new.replicate, new.phase, new.status = 'queued', new.status = 'running', new.status = 'done', new.status = 'failed', new.status = 'cancelled', new.status = 'skipped')
  ON CONFLICT (experiment_id, method, task, replicate, phase) DO UPDATE SET queued = queued + excluded.queued, running = running + excluded.running, done = done + excluded.done, failed = failed + excluded.failed, cancelled = cancelled + excluded.cancelled, skipped = skipped + excluded.skipped;
END;
--> statement-breakpoint
CREATE TRIGGER jobs_groups_status AFTER UPDATE OF status ON jobs WHEN old.status IS NOT new.status BEGIN
  UPDATE experiment_groups SET queued = queued + (new.status = 'queued') - (old.status = 'queued'), running = running + (new.status = 'running') - (old.status = 'running'), done = done + (new.status = 'done') - (old.status = 'done'), failed = failed + (new.status = 'failed') - (old.status = 'failed'), cancelled = cancelled + (new.status = 'cancelled') - (old.status = 'cancelled'), skipped = skipped + (new.status = 'skipped') - (old.status = 'skipped')
  WHERE experiment_id = new.experiment_id AND method = new.method AND task = new.task AND replicate = new.replicate AND phase = new.phase;
END;
--> statement-breakpoint
CREATE TRIGGER jobs_groups_delete AFTER DELETE ON jobs BEGIN
  UPDATE experiment_groups SET queued = queued - (old.status = 'queued'), running = running - (old.status = 'running'), done = done - (old.status = 'done'), failed = failed - (old.status = 'failed'), cancelled = cancelled - (old.status = 'cancelled'), skipped = skipped - (old.status = 'skipped')
  WHERE experiment_id = old.experiment_id AND method = old.method AND task = old.task AND replicate = old.replicate AND phase = old.phase;
END;
--> statement-breakpoint
CREATE TRIGGER llm_calls_experiment_ledger AFTER INSERT ON llm_calls WHEN new.job_id IS NOT NULL BEGIN
  INSERT INTO experiment_ledger_sums (experiment_id, method, role, ok, hits, requests, prompt_tokens, completion_tokens, paid_prompt_tokens, paid_completion_tokens, bad, bad_prompt_tokens, bad_completion_tokens, unknown, cut_off)
  SELECT j.experiment_id, j.method, new.role, new.status = 'ok', new.cache_hit, new.cache_hit = 0, new.prompt_tokens, new.completion_tokens, CASE WHEN new.cache_hit = 0 THEN new.prompt_tokens ELSE 0 END, CASE WHEN new.cache_hit = 0 THEN new.completion_tokens ELSE 0 END, new.status IN ('invalid', 'failed'), CASE WHEN new.status IN ('invalid', 'failed') THEN new.prompt_tokens ELSE 0 END, CASE WHEN new.status IN ('invalid', 'failed') THEN new.completion_tokens ELSE 0 END, new.usage_unknown, coalesce(new.error LIKE 'cut off at max_tokens%', 0)
  FROM jobs j WHERE j.id = new.job_id
  ON CONFLICT (experiment_id, method, role) DO UPDATE SET ok = ok + excluded.ok, hits = hits + excluded.hits, requests = requests + excluded.requests, prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens, paid_prompt_tokens = paid_prompt_tokens + excluded.paid_prompt_tokens, paid_completion_tokens = paid_completion_tokens + excluded.paid_completion_tokens, bad = bad + excluded.bad, bad_prompt_tokens = bad_prompt_tokens + excluded.bad_prompt_tokens, bad_completion_tokens = bad_completion_tokens + excluded.bad_completion_tokens, unknown = unknown + excluded.unknown, cut_off = cut_off + excluded.cut_off;
END;
--> statement-breakpoint
INSERT INTO experiment_groups (experiment_id, method, task, replicate, phase, queued, running, done, failed, cancelled, skipped)
  SELECT experiment_id, method, task, replicate, phase, sum(status = 'queued'), sum(status = 'running'), sum(status = 'done'), sum(status = 'failed'), sum(status = 'cancelled'), sum(status = 'skipped')
  FROM jobs WHERE true GROUP BY experiment_id, method, task, replicate, phase;
--> statement-breakpoint
INSERT INTO experiment_ledger_sums (experiment_id, method, role, ok, hits, requests, prompt_tokens, completion_tokens, paid_prompt_tokens, paid_completion_tokens, bad, bad_prompt_tokens, bad_completion_tokens, unknown, cut_off)
  SELECT j.experiment_id, j.method, c.role, sum(c.status = 'ok'), sum(c.cache_hit), sum(c.cache_hit = 0), sum(c.prompt_tokens), sum(c.completion_tokens), sum(CASE WHEN c.cache_hit = 0 THEN c.prompt_tokens ELSE 0 END), sum(CASE WHEN c.cache_hit = 0 THEN c.completion_tokens ELSE 0 END), sum(c.status IN ('invalid', 'failed')), sum(CASE WHEN c.status IN ('invalid', 'failed') THEN c.prompt_tokens ELSE 0 END), sum(CASE WHEN c.status IN ('invalid', 'failed') THEN c.completion_tokens ELSE 0 END), sum(c.usage_unknown), sum(coalesce(c.error LIKE 'cut off at max_tokens%', 0))
  FROM llm_calls c JOIN jobs j ON j.id = c.job_id WHERE true GROUP BY j.experiment_id, j.method, c.role;
