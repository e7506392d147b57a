-- migrate_4.sql — schema version 4: variants made of several kernel launches.
--
-- Applied by store/store_schema.c as migration step 4, in the same transaction as the steps before it;
-- additive only: every launch stored before it is a single-launch variant (part 0).

-- 0 for a variant's row (a single launch, or the total of a multi-launch variant); k >= 1 for the k-th
-- kernel launch of the multi-launch variant whose part-0 row precedes it in the same run (id order).
-- Readers that want one row per variant select part = 0.
ALTER TABLE launches ADD COLUMN part INTEGER NOT NULL DEFAULT 0;
-- The PTX entry the row launched; '' for a multi-launch total and for rows stored before version 4.
ALTER TABLE launches ADD COLUMN entry TEXT NOT NULL DEFAULT '';
