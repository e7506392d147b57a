-- migrate_6.sql — schema version 6: runs that travel between databases (`gpulab merge`, sweeps) and
-- launches that cover only part of their grid (`--cta-range`).
--
-- Applied by store/store_schema.c as migration step 6, in the same transaction as the steps before it;
-- additive only.  Runs stored before version 6 get a fresh UUID here, so every run has one.

-- A run's identity across databases: a random UUID (version 4) given when the run is stored and copied
-- unchanged by `gpulab merge` and `gpulab import`, so merging a shard twice adds nothing.
ALTER TABLE runs ADD COLUMN uuid TEXT;
UPDATE runs SET uuid = lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
	substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
	substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))
	WHERE uuid IS NULL;
CREATE UNIQUE INDEX runs_uuid ON runs(uuid);
-- Where the run came from: the sweep it belongs to (`gpulab sweep`), the Slurm job and array task that
-- ran it ('' outside Slurm), and the file it was merged from ('' for a run stored here directly).
ALTER TABLE runs ADD COLUMN sweep_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN slurm_job_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN slurm_task_id TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN merged_from TEXT NOT NULL DEFAULT '';

-- A launch that simulated only CTAs cta_first .. cta_end-1 of its grid (in grid order): partial counts,
-- outputs not verified.  NULL for a launch of the whole grid (every launch before version 6).
ALTER TABLE launches ADD COLUMN cta_first INTEGER;
ALTER TABLE launches ADD COLUMN cta_end INTEGER;

-- What a partial launch wrote to each output buffer: the bytes that differ from the buffer before the
-- launch, as segments (8-byte offset, 4-byte length, the bytes; little-endian).  `gpulab merge` joins the
-- shards' segments when their writes are CTA-disjoint, so the whole launch's outputs can be verified.
CREATE TABLE launch_outputs (
	launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
	name      TEXT NOT NULL,           -- the output buffer
	bytes     INTEGER NOT NULL,        -- its size
	segments  BLOB NOT NULL,
	PRIMARY KEY (launch_id, name)
);
