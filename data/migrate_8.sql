-- migrate_8.sql — schema version 8: why a run ran on its backend.
--
-- Applied by store/store_schema.c as migration step 8, in the same transaction as the steps before it;
-- additive only.

-- The backend choice as gpulab said it when the run started: 'backend sim: no usable GPU here (...)',
-- 'backend cuda: CUDA driver 13.0 with 1 device', 'backend sim: chosen with --backend sim'.  Said on
-- stderr once per terminal session (or with -v); `gpulab report` and --json show it from here.  '' for a
-- run stored before version 8 or by a command that chose no backend.
ALTER TABLE runs ADD COLUMN backend_note TEXT NOT NULL DEFAULT '';

-- (No table changes for this one:) trace_events also holds, since version 8, each traced warp's shuffles
-- (space 'warp', op 'shfl', each lane's address the lane it read) and barrier arrivals (space 'cta', op
-- 'bar', the barrier id), between its memory events in execution order.
