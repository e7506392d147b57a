-- schema.sql — gpulab's results database, schema version 1.
--
-- Embedded into the binary (gl_schema_sql) and applied by store/store_schema.c as migration
-- step 1, inside one transaction; the code then sets PRAGMA user_version = 1.  A database that has
-- been created must keep working: change the schema by adding a migration step in
-- store/store_schema.c, not by editing this file.
--
-- Conventions: times are UTC ISO-8601 text ("2025-01-31T12:00:00Z"); grid and block are "X,Y,Z";
-- metric names are Nsight Compute's (see common/metrics.h); unknown values are NULL.

-- Marks the file as gpulab's ('GPLB'), so that another program's SQLite file is never mistaken for it.
PRAGMA application_id = 1196444738;

-- One row per `gpulab run` (or validate): where and with what it ran.
CREATE TABLE runs (
	id             INTEGER PRIMARY KEY,
	started_at     TEXT NOT NULL,
	finished_at    TEXT,                           -- NULL only inside the run's own transaction
	status         TEXT NOT NULL DEFAULT 'running', -- 'running' until committed, then e.g. 'ok', 'failed'
	backend        TEXT NOT NULL,                  -- 'sim' or 'cuda'
	device         TEXT NOT NULL DEFAULT '',
	chip           TEXT NOT NULL DEFAULT '',       -- 'GH100'; empty on the simulator
	sm_count       INTEGER,
	cc             TEXT NOT NULL DEFAULT '',       -- '9.0'
	driver         TEXT NOT NULL DEFAULT '',
	cupti_version  TEXT NOT NULL DEFAULT '',
	gpulab_version TEXT NOT NULL,
	host           TEXT NOT NULL DEFAULT '',
	argv           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_started_at ON runs(started_at);

-- One row per kernel launch (topic, variant, sizes) of a run.
CREATE TABLE launches (
	id            INTEGER PRIMARY KEY,
	run_id        INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	topic         TEXT NOT NULL,
	variant       TEXT NOT NULL,
	params_json   TEXT NOT NULL DEFAULT '{}',  -- {"rows":1024,"cols":1024}
	grid          TEXT NOT NULL,               -- "X,Y,Z"
	block         TEXT NOT NULL,               -- "X,Y,Z"
	dyn_smem      INTEGER NOT NULL DEFAULT 0,  -- bytes
	regs          INTEGER,                     -- per thread, from ptxas -v; NULL when unknown
	static_smem   INTEGER,                     -- bytes; NULL when unknown
	verified      INTEGER CHECK (verified IN (0, 1)), -- NULL: not checked (sampled CTAs wrote partial outputs)
	max_abs_err   REAL,
	max_rel_err   REAL,
	duration_ns   REAL,                        -- NULL when not measured (simulator)
	metric_source TEXT NOT NULL DEFAULT '',    -- 'sim' or 'cupti' (also in each metrics row)
	note          TEXT NOT NULL DEFAULT ''     -- e.g. 'sampled 64 of 1024 CTAs, counts scaled'
);
CREATE INDEX launches_run ON launches(run_id);
CREATE INDEX launches_topic ON launches(topic, variant);

-- One row per metric value of a launch, under Nsight Compute's names.
CREATE TABLE metrics (
	launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
	name      TEXT NOT NULL,
	value     REAL,
	unit      TEXT NOT NULL DEFAULT '',
	source    TEXT NOT NULL,                   -- 'sim' or 'cupti'
	PRIMARY KEY (launch_id, name, source)
);
CREATE INDEX metrics_name ON metrics(name);

-- Warp-level memory events of a launch (only with --trace), in execution order.
CREATE TABLE trace_events (
	launch_id   INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,              -- order within the launch
	block       INTEGER NOT NULL,              -- linear CTA index: x + y*grid.x + z*grid.x*grid.y
	warp        INTEGER NOT NULL,              -- warp index within the CTA
	pc          INTEGER NOT NULL,              -- index of the decoded PTX instruction
	line        INTEGER,                       -- PTX source line
	space       TEXT NOT NULL,                 -- 'global', 'shared', 'local'
	op          TEXT NOT NULL,                 -- 'ld', 'st', 'atom', ...
	bytes       INTEGER NOT NULL,              -- access size per lane
	addr_base   INTEGER NOT NULL,              -- address of the first active lane
	addr_stride INTEGER,                       -- bytes between consecutive lanes; NULL when not strided
	mask        INTEGER NOT NULL,              -- active lanes, bit i = lane i
	buffer      TEXT,                          -- named buffer or shared array, when known
	buffer_base INTEGER,                       -- the buffer's first byte (device or shared address)
	cost        INTEGER,                       -- global: sectors; shared: wavefronts
	addrs       BLOB,                          -- 32 little-endian u64 lane addresses when not strided
	PRIMARY KEY (launch_id, seq)
) WITHOUT ROWID;

-- Where the learner is in each lesson.
CREATE TABLE lesson_progress (
	lesson TEXT NOT NULL,
	step   INTEGER NOT NULL,
	status TEXT NOT NULL,                      -- e.g. 'started', 'done'
	at     TEXT NOT NULL,                      -- UTC ISO-8601
	PRIMARY KEY (lesson, step)
);

-- The counters of each launch as columns (NULL when not collected).
CREATE VIEW launch_counters AS
SELECT l.id AS launch_id,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum') AS gld_requests,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum') AS gld_sectors,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum') AS gst_requests,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum') AS gst_sectors,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'smsp__inst_executed_op_shared_ld.sum') AS sld_instructions,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum') AS sld_wavefronts,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum') AS sld_conflicts,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'smsp__inst_executed_op_shared_st.sum') AS sst_instructions,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum') AS sst_wavefronts,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum') AS sst_conflicts,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'smsp__inst_executed.sum') AS instructions,
	(SELECT MAX(value) FROM metrics m WHERE m.launch_id = l.id
		AND m.name = 'smsp__thread_inst_executed.sum') AS thread_instructions
FROM launches l;

-- One row per launch with the ratios the lessons talk about: sectors per global request (4 is
-- ideal for 4-byte loads), shared wavefronts and bank conflicts per shared instruction (1 and 0 are
-- ideal), SIMT efficiency, and the L1 global traffic and its rate (bytes/ns = GB/s, GPU runs only).
CREATE VIEW launch_summary AS
SELECT l.id AS launch_id, l.run_id, r.backend, l.topic, l.variant, l.params_json, l.grid, l.block,
	l.verified, l.duration_ns, l.metric_source,
	c.gld_requests, c.gld_sectors,
	c.gld_sectors / NULLIF(c.gld_requests, 0) AS gld_sectors_per_request,
	c.gst_requests, c.gst_sectors,
	c.gst_sectors / NULLIF(c.gst_requests, 0) AS gst_sectors_per_request,
	c.sld_instructions, c.sld_wavefronts, c.sld_conflicts,
	c.sld_wavefronts / NULLIF(c.sld_instructions, 0) AS sld_wavefronts_per_instruction,
	c.sld_conflicts / NULLIF(c.sld_instructions, 0) AS sld_conflicts_per_instruction,
	c.sst_instructions, c.sst_wavefronts, c.sst_conflicts,
	c.sst_wavefronts / NULLIF(c.sst_instructions, 0) AS sst_wavefronts_per_instruction,
	c.sst_conflicts / NULLIF(c.sst_instructions, 0) AS sst_conflicts_per_instruction,
	c.instructions, c.thread_instructions,
	c.thread_instructions / NULLIF(32.0 * c.instructions, 0) AS simt_efficiency,
	32.0 * (IFNULL(c.gld_sectors, 0) + IFNULL(c.gst_sectors, 0)) AS global_bytes,
	32.0 * (IFNULL(c.gld_sectors, 0) + IFNULL(c.gst_sectors, 0)) / NULLIF(l.duration_ns, 0) AS global_gbps
FROM launches l
JOIN runs r ON r.id = l.run_id
JOIN launch_counters c ON c.launch_id = l.id;

-- launch_summary for the most recent run only.
CREATE VIEW latest_launches AS
SELECT * FROM launch_summary WHERE run_id = (SELECT MAX(id) FROM runs);

-- One row per run: when, where, how many launches and how many failed verification.
CREATE VIEW run_summary AS
SELECT r.id AS run_id, r.started_at, r.finished_at, r.status, r.backend, r.device, r.host, r.argv,
	(SELECT COUNT(*) FROM launches l WHERE l.run_id = r.id) AS launches,
	(SELECT COUNT(*) FROM launches l WHERE l.run_id = r.id AND l.verified = 0) AS failed
FROM runs r;
