-- migrate_7.sql — schema version 7: exercise progress (gpulab exercise start/check/solution).
--
-- Applied by store/store_schema.c as migration step 7, in the same transaction as the steps before it;
-- additive only.

-- One row per exercise the learner started.
CREATE TABLE exercise_progress (
	exercise TEXT PRIMARY KEY,           -- "04-transpose-tiled"
	status   TEXT NOT NULL,              -- 'started', 'failed' or 'passed': the latest check's verdict
	checks   INTEGER NOT NULL DEFAULT 0, -- how many checks ran
	passed   INTEGER NOT NULL DEFAULT 0, -- 1 once any check passed (unlocks `exercise solution`)
	last_run INTEGER,                    -- the run the latest check stored (its measured launch)
	at       TEXT NOT NULL               -- UTC ISO-8601 of the latest change
);
