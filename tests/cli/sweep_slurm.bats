#!/usr/bin/env bats
# gpulab sweep through a real Slurm: tests/slurm/cluster.sh starts a private single-node cluster (munged,
# slurmctld, slurmd from Debian's packages, this host as controller and compute node, 2 CPUs) when running
# as root; the sweep goes through sbatch as a job array, `gpulab sweep collect --wait` merges the shards,
# a failed task is resubmitted alone.  Skipped, with the reason, where the daemons cannot start.

setup_file() {
	export SLURM_DIR="$BATS_FILE_TMPDIR/slurm"
	export SLURM_CONF="$SLURM_DIR/slurm.conf"
	"$BATS_TEST_DIRNAME/../slurm/cluster.sh" start "$SLURM_DIR" 2>"$BATS_FILE_TMPDIR/why"
	export SLURM_STARTED=$?
}

teardown_file() {
	"$BATS_TEST_DIRNAME/../slurm/cluster.sh" stop "$SLURM_DIR"
}

setup() {
	load test_helper
	common_setup
	[ "$SLURM_STARTED" = 0 ] || skip "no Slurm cluster: $(cat "$BATS_FILE_TMPDIR/why")"
	T=$BATS_TEST_TMPDIR
	cd "$T"
}

# counts DB SIZE: every launch's metrics of the run at SIZE, as "variant|name|value" lines
counts() {
	sqlite3 "$1" "SELECT l.variant, m.name, m.value FROM launches l JOIN metrics m ON m.launch_id = l.id
		WHERE l.params_json LIKE '%\"rows\":$2,%' ORDER BY l.variant, m.name"
}

@test "slurm: transpose x 3 sizes x 5 variants through sbatch, merged into one database equal to local runs" {
	run "$GPULAB" sweep --topic transpose --param size=64,128,256 --backend sim --slurm --time 00:05:00 \
		--array-limit 2 --dir sw
	assert_success
	assert_line --regexp "^submitted Slurm job [0-9]+$"
	grep -q '^#SBATCH --array=0-2%2$' sw/sweep.sbatch
	run "$GPULAB" sweep collect sw --wait --into "$T/merged.db"
	assert_success
	assert_line "3 runs merged into $T/merged.db"
	run "$GPULAB" runs --csv --db "$T/merged.db"
	assert_success
	[ "${#lines[@]}" = 4 ] # the header and 3 runs, 5 launches each
	for n in 64 128 256; do
		assert_line --regexp "^[0-9]+,[^,]+,transpose,\"copy,naive,coalesced,padded,swizzled\",\"\{\"\"rows\"\":$n,\"\"cols\"\":$n\}\",sim,.*,ok,5,0$"
	done
	[ "$(sqlite3 "$T/merged.db" 'SELECT count(*) FROM launches')" = 15 ]
	local job
	job=$(sed -n 's/^slurm_job=//p' sw/sweep.conf)
	[ "$(sqlite3 "$T/merged.db" "SELECT group_concat(slurm_task_id, ',') FROM (SELECT slurm_task_id FROM runs
		WHERE slurm_job_id = '$job' AND sweep_id <> '' AND host <> '' ORDER BY 1)")" = "0,1,2" ]
	for n in 64 128 256; do
		"$GPULAB" run transpose --size $n --backend sim --db "$T/local.db" >/dev/null 2>&1
		counts "$T/local.db" $n > local.txt
		counts "$T/merged.db" $n > merged.txt
		[ "$(wc -l < local.txt)" -ge 60 ]
		diff local.txt merged.txt
	done
	run "$GPULAB" sweep status sw
	assert_line "3 tasks: 3 done, 0 failed, 0 running, 0 pending, 0 lost, 0 not run"
}

@test "slurm: a failed task is listed with its log and resubmitted alone with --retry-failed" {
	mkdir -p sw/shard-1.db # task 1 cannot create its shard
	run "$GPULAB" sweep --topic transpose --variant copy --param size=32,64 --backend sim --slurm --dir sw
	assert_success
	run "$GPULAB" sweep collect sw --wait --into "$T/m.db"
	assert_failure 1
	assert_line "task 1 failed (exit 3): log $T/sw/logs/task-1.log"
	assert_line "1 run merged into $T/m.db"
	rmdir sw/shard-1.db
	run "$GPULAB" sweep collect sw --retry-failed --into "$T/m.db"
	assert_success
	assert_line --regexp "^submitted Slurm job [0-9]+ for tasks 1$"
	run "$GPULAB" sweep collect sw --wait --into "$T/m.db"
	assert_success
	assert_line "merged 0 runs from $T/sw/shard-0.db (1 already there)"
	assert_line "1 run merged into $T/m.db"
	[ "$(sqlite3 "$T/m.db" 'SELECT count(*) FROM runs')" = 2 ]
}
