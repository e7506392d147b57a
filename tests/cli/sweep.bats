#!/usr/bin/env bats
# gpulab sweep without Slurm: the job list (cartesian product, size rules, refused combinations), spec
# files in the TOML subset, a local sweep with -j 2 merged into one database (a GEMM split with
# --shard-ctas 4 has the unsharded counts), failed tasks listed with their logs, and the usage errors.

setup() {
	load test_helper
	common_setup
	T=$BATS_TEST_TMPDIR
	cd "$T"
}

metrics() {
	# (a launch's footprint, gpulab__dram_sectors_unique_*, is a union over CTAs, not a sum: shards leave it out)
	sqlite3 "$1" "SELECT name, value FROM metrics WHERE launch_id = (SELECT MAX(id) FROM launches ${2:-})
		AND name NOT LIKE 'gpulab__dram_sectors_unique_%' ORDER BY name"
}

@test "sweep --dry-run: the cartesian product, each topic's size rules, refused combinations listed" {
	run "$GPULAB" sweep --topic gemm --variant smem,vectorized --param n=64,66 --param m=32,64 --backend sim --dry-run
	assert_success
	assert_line "sweep of gemm: 4 parameter combinations -> 4 jobs (one run each, its variants together)"
	assert_line "  job 0: gpulab run gemm --backend sim --n 64 --m 32 --variant smem,vectorized"
	assert_line "  job 3: gpulab run gemm --backend sim --n 66 --m 64 --variant smem"
	assert_line --partial "  refused: n=66 m=32 variant vectorized: gemm vectorized moves float4s"
	[ "$(grep -c refused: <<<"$output")" = 2 ]
	[ ! -e "$T/gpulab.db" ] && ! ls -d gpulab-sweep-* 2>/dev/null
	run "$GPULAB" sweep --topic transpose --param size=16,64 --param rows=8,100000000 --dry-run
	assert_success
	assert_line "sweep of transpose: 4 parameter combinations -> 2 jobs (one run each, its variants together)"
	assert_line --partial "  refused: size=16 rows=100000000: --rows 100000000 is out of range"
	run "$GPULAB" sweep --topic conv2d --variant direct,im2col_gemm --shard-ctas 2 --backend sim --dry-run
	assert_success
	assert_line "  job 1: gpulab run conv2d --backend sim --variant direct --cta-range 98:196"
	assert_line --partial "refused: defaults variant im2col_gemm: im2col_gemm runs 2 kernel launches"
}

@test "sweep: a spec file in the TOML subset gives the same jobs as the options" {
	cat > spec.toml <<'TOML'
# a sweep of the transpose topic
topic = "transpose"
variants = ["naive", "coalesced"]   # two variants
backend = "sim"

[params]
size = [256, 512]
TOML
	run "$GPULAB" sweep spec.toml --dry-run
	assert_success
	local from_file=$output
	run "$GPULAB" sweep --topic transpose --variant naive,coalesced --backend sim --param size=256,512 --dry-run
	[ "$output" = "$from_file" ]
	printf 'topic = "transpose"\n[params]\nsize = [256,\n  512]\n' > bad.toml
	run "$GPULAB" sweep bad.toml --dry-run
	assert_failure 2
	assert_output --partial "bad.toml:3: cannot read this line"
	printf 'topic = "transpose"\ncolour = "red"\n' > bad2.toml
	run "$GPULAB" sweep bad2.toml --dry-run
	assert_failure 2
	assert_output --partial "bad2.toml:2: unknown key 'colour'"
	printf '[slurm]\npartition = "gpu"\narray_limit = 4\n' > s.toml
	run "$GPULAB" sweep s.toml --topic reduce --dry-run
	assert_success
}

@test "sweep --local -j 2 --shard-ctas 4: GEMM shards merged into one database with the unsharded counts" {
	run "$GPULAB" sweep --topic gemm --variant smem --param size=128 --shard-ctas 4 --backend sim --local -j 2 \
		--dir sw --into "$T/all.db"
	assert_success
	assert_line "  job 3: gpulab run gemm --backend sim --size 128 --variant smem --cta-range 12:16"
	assert_line "assembled 1 sharded launch from their CTA ranges (counts summed)"
	assert_line --regexp "^launch [0-9]+: outputs joined from CTA-disjoint writes passed verification$"
	assert_line "4 runs merged into $T/all.db"
	"$GPULAB" run gemm --variant smem --size 128 --backend sim --db "$T/whole.db" >/dev/null 2>&1
	metrics "$T/whole.db" > whole.txt
	metrics "$T/all.db" "WHERE cta_end IS NULL" > assembled.txt
	[ "$(wc -l < whole.txt)" -gt 20 ]
	diff whole.txt assembled.txt
	local id
	id=$(sed -n 's/^id=//p' sw/sweep.conf)
	[ "$(sqlite3 "$T/all.db" "SELECT count(*) FROM runs WHERE sweep_id = '$id' AND host = '$(hostname)'")" = 5 ]
	run "$GPULAB" sweep status sw
	assert_success
	assert_line "4 tasks: 4 done, 0 failed, 0 running, 0 pending, 0 lost, 0 not run"
	run "$GPULAB" sweep collect sw --into "$T/all.db" # again: nothing new
	assert_success
	assert_line "0 runs merged into $T/all.db"
}

@test "sweep --local: a failed task is listed with its log and the sweep exits 1" {
	mkdir -p sw/shard-1.db # task 1 cannot create its shard
	run "$GPULAB" sweep --topic transpose --variant copy --param size=32,64 --backend sim --local --dir sw --into "$T/all.db"
	assert_failure 1
	assert_line "task 1 failed (exit 3): log $T/sw/logs/task-1.log"
	assert_output --partial "    | gpulab:"
	assert_output --partial "1 of 2 tasks failed (logs above)"
	[ "$(sqlite3 "$T/all.db" 'SELECT count(*) FROM runs')" = 1 ]
	run "$GPULAB" sweep status sw
	assert_line --regexp "^1 +failed +3 +$T/sw/logs/task-1.log"
	run "$GPULAB" sweep collect sw --retry-failed --into "$T/all.db"
	assert_failure 2
	assert_output --partial "--retry-failed resubmits through Slurm"
}

@test "sweep: usage and environment errors" {
	run "$GPULAB" sweep --topic transpose --param size=32
	assert_failure 2
	assert_output --partial "choose one of --dry-run"
	run "$GPULAB" sweep --param size=32 --dry-run
	assert_failure 2
	assert_output --partial "a sweep needs a topic"
	run "$GPULAB" sweep --topic transpose --param causal=0,1 --dry-run
	assert_failure 2
	assert_output --partial "--param causal does not apply to topic transpose"
	run "$GPULAB" sweep --topic transpose --param size --dry-run
	assert_failure 2
	assert_output --partial "expected NAME=V1,V2"
	run "$GPULAB" sweep --topic transpose --param size=big --dry-run
	assert_success
	assert_line --partial "  refused: size=big: "
	run "$GPULAB" sweep --topic transpose --param size=big --local --dir none
	assert_failure 2
	assert_output --partial "every combination was refused"
	run "$GPULAB" sweep --topic transpose --param 'size=a;b' --dry-run
	assert_failure 2
	run "$GPULAB" sweep status nowhere
	assert_failure 2
	assert_output --partial "nowhere is not a sweep directory"
	run "$GPULAB" sweep collect
	assert_failure 2
	run env PATH=/nonexistent "$GPULAB" sweep --topic transpose --variant copy --param size=32 --slurm --dir sl
	assert_failure 3
	assert_output --partial "sbatch refused the sweep's job array"
	grep -q '^#SBATCH --array=0-0$' sl/sweep.sbatch
	run "$GPULAB" sweep --topic transpose --param size=32 --slurm --partition 'a b' --dir sl2
	assert_failure 2
	run "$GPULAB" sweep --topic transpose --param size=32 --local --dir "it's"
	assert_failure 2
	assert_output --partial "pick a path without quotes"
	[ ! -e "it's" ]
}

@test "sweep collect: a task that exited 1 stored its run (failed verification): merged, named, exit 1" {
	"$GPULAB" sweep --topic transpose --variant copy --param size=32,64 --backend sim --local --dir sw \
		--into "$T/a.db" >/dev/null
	echo 1 > sw/status/task-1 # as `gpulab run` exits when a variant fails verification
	run "$GPULAB" sweep collect sw --into "$T/b.db"
	assert_failure 1
	assert_line "task 1: a variant failed verification or the sanitizer found errors (stored; log $T/sw/logs/task-1.log)"
	assert_line "2 runs merged into $T/b.db"
	assert_output --partial "1 of 2 tasks stored runs that failed verification"
	run "$GPULAB" sweep status sw
	assert_line "2 tasks: 2 done, 0 failed, 0 running, 0 pending, 0 lost, 0 not run"
}
