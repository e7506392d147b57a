-- migrate_2.sql — schema version 2: the simulator's sanitizer findings.
--
-- Applied by store/store_schema.c as migration step 2 after data/schema.sql (step 1), in the same
-- transaction; additive only, so a version-1 database keeps every row.

-- Occurrences of sanitizer errors and warnings of a launch, every one counted (also those beyond the
-- distinct findings kept); NULL when no sanitizer ran (GPU launches, runs stored before version 2).
ALTER TABLE launches ADD COLUMN sanitizer_errors INTEGER;
ALTER TABLE launches ADD COLUMN sanitizer_warnings INTEGER;
-- Occurrences of distinct findings beyond the 1024 kept.
ALTER TABLE launches ADD COLUMN sanitizer_dropped INTEGER;

-- One row per distinct finding of a simulated launch, deduplicated by (kind, PTX line) like
-- compute-sanitizer: errors first, then warnings, each in the order first seen in grid order.
CREATE TABLE sanitizer_findings (
	launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
	seq       INTEGER NOT NULL,                -- 0, 1, ... in the order above
	kind      TEXT NOT NULL,                   -- 'out-of-bounds', 'misaligned', 'race', 'uninitialized', ...
	tool      TEXT NOT NULL DEFAULT '',        -- 'memcheck', 'racecheck', 'initcheck', 'synccheck' or ''
	severity  TEXT NOT NULL CHECK (severity IN ('error', 'warning')),
	space     TEXT NOT NULL DEFAULT '',        -- 'global', 'shared', 'local', 'param' or ''
	line      INTEGER NOT NULL,                -- PTX line
	cuda_line INTEGER,                         -- CUDA line from .loc; NULL when unknown
	count     INTEGER NOT NULL,                -- occurrences
	address   INTEGER NOT NULL,                -- of the first occurrence
	size      INTEGER NOT NULL,
	block     TEXT NOT NULL,                   -- first occurrence, "X,Y,Z"
	thread    TEXT NOT NULL,
	samples   TEXT NOT NULL,                   -- JSON: [{"block":[x,y,z],"thread":[x,y,z]}, ...] up to 4
	message   TEXT NOT NULL,                   -- the first occurrence's
	PRIMARY KEY (launch_id, seq)
) WITHOUT ROWID;
