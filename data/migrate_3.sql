-- migrate_3.sql — schema version 3: each launch's buffer map, so a reader of its trace (the views)
-- needs nothing but the store to turn an address into "in[12]" or "tile +1152".
--
-- Applied by store/store_schema.c as migration step 3, in the same transaction as the steps before it;
-- additive only.  Launches stored before version 3 have no rows here, and readers say so.

-- One row per global buffer and per shared array of a launch, in the launch's order.
CREATE TABLE launch_buffers (
	launch_id INTEGER NOT NULL REFERENCES launches(id) ON DELETE CASCADE,
	seq       INTEGER NOT NULL,          -- 0, 1, ... globals in parameter order, then shared arrays
	name      TEXT NOT NULL,             -- the harness's or --arg's buffer name, or the .shared variable's
	shared    INTEGER NOT NULL CHECK (shared IN (0, 1)), -- 1: base is an offset in the CTA's shared space
	base      INTEGER NOT NULL,          -- first byte (the simulator's device address for a global)
	bytes     INTEGER NOT NULL,
	dtype     TEXT NOT NULL,             -- element type: 'f32', 'i32', ...; 'b32' when unknown (shared)
	elem      INTEGER NOT NULL,          -- bytes per element
	rows      INTEGER NOT NULL,          -- logical row-major shape in elements (rows = 1 for a vector)
	cols      INTEGER NOT NULL,
	PRIMARY KEY (launch_id, seq)
);
