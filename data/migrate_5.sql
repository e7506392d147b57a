-- migrate_5.sql — schema version 5: the guidance each launch earned (the rules of docs/insights.md), and
-- run_summary with the topic and parameters of a run, for `gpulab runs`.
--
-- Applied by store/store_schema.c as migration step 5, in the same transaction as the steps before it;
-- additive only.  Launches stored before version 5 have no guidance rows, and readers say so.

-- One row per rule that fired on a launch, in the order the rules table lists them.
CREATE TABLE launch_guidance (
	launch_id         INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
	seq               INTEGER NOT NULL,
	rule              TEXT NOT NULL,            -- 'uncoalesced_global_stores', ...
	severity          TEXT NOT NULL CHECK (severity IN ('OPT', 'WRN', 'INF')),
	message           TEXT NOT NULL,            -- with the numbers
	metric            TEXT NOT NULL DEFAULT '', -- the metric (or derived ratio) the rule judged
	value             REAL,                     -- its value
	estimated_speedup REAL,                     -- NULL where the rule cannot bound one
	PRIMARY KEY (launch_id, seq)
);

DROP VIEW run_summary;
-- One row per run: when, where, what (topic, variants, parameters of its first launch), how many
-- launches and how many failed verification.
CREATE VIEW run_summary AS
SELECT r.id AS run_id, r.started_at, r.finished_at, r.status, r.backend, r.device, r.host, r.argv,
	(SELECT COUNT(*) FROM launches l WHERE l.run_id = r.id) AS launches,
	(SELECT COUNT(*) FROM launches l WHERE l.run_id = r.id AND l.verified = 0) AS failed,
	(SELECT l.topic FROM launches l WHERE l.run_id = r.id ORDER BY l.id LIMIT 1) AS topic,
	(SELECT GROUP_CONCAT(variant, ',') FROM
		(SELECT l.variant FROM launches l WHERE l.run_id = r.id AND l.part = 0 ORDER BY l.id)) AS variants,
	(SELECT l.params_json FROM launches l WHERE l.run_id = r.id ORDER BY l.id LIMIT 1) AS params_json
FROM runs r;
