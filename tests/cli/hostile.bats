#!/usr/bin/env bats
# Hostile input (issue 27): each finding of the review as a reproducer that must end in a sentence and an
# exit status of 1, 2 or 3 — never a signal — with the database and the caches left as they were.
#  - a module's own `.func vprintf` (both engines, and through `exercise check`);
#  - the compiled engine's cache: a planted object (another user's, or without a record), a truncated one,
#    one swapped in from another kernel, a cache directory others may write;
#  - crafted database rows (view gemm's parameters, a warp id, view flash's addresses) for the views,
#    report, import and merge; shards whose `runs` is a view or that carry a trigger;
#  - tampered sweep directories; resource limits (instruction budget per launch, input size); the
#    sanitizer's wmma alignment and cp.async src-size checks; sweep specs validated like the command line.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
	export XDG_CACHE_HOME="$OUT/cache"
}

have_cc() {
	command -v "${GPULAB_CC:-cc}" >/dev/null 2>&1
}

# no_signal: the last `run` ended with a status below 128 (not killed by a signal)
no_signal() {
	[ "$status" -lt 128 ] || { echo "killed by a signal: status $status"; return 1; }
}

user_vprintf() { # user_vprintf FILE [recursive]: a kernel map_square(x, y, n) calling a .func named vprintf
	local body='	.local .align 4 .b8 depot[8];
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	mov.u64 %rd1, depot;
	mov.u32 %r1, %tid.x;
	st.local.u32 [%rd1], %r1;
	ld.local.u32 %r2, [%rd1];'
	[ "${2:-}" = recursive ] && body='	call vprintf, ();'
	cat >"$1" <<EOF
.version 8.0
.target sm_80
.address_size 64
.func vprintf()
{
$body
	ret;
}
.visible .entry map_square(.param .u64 x, .param .u64 y, .param .u32 n)
{
	call vprintf, ();
	ret;
}
EOF
}

@test "a module's own .func vprintf is an ordinary call on both engines: no crash, no false findings" {
	user_vprintf "$OUT/fake.ptx"
	for engine in interp compiled auto; do
		run "$GPULAB" sim "$OUT/fake.ptx" --kernel map_square --grid 2 --block 64 --arg buf:x:f32:128 \
			--arg buf:y:f32:128 --arg u32:128 --engine "$engine"
		no_signal
		assert_success
		assert_output --partial "ERROR SUMMARY: 0 errors"
	done
	# the compiled engine refuses a kernel with a .func call, as docs/sim.md says, and says so
	run "$GPULAB" sim "$OUT/fake.ptx" --kernel map_square --grid 2 --block 64 --arg buf:x:f32:128 \
		--arg buf:y:f32:128 --arg u32:128 --engine compiled
	assert_output --partial "engine: the interpreter ran kernel map_square: it makes a call to a device function"
}

@test "a recursive .func vprintf is a stack overflow finding (exit 1), not a crash" {
	user_vprintf "$OUT/rec.ptx" recursive
	for engine in interp compiled; do
		run "$GPULAB" sim "$OUT/rec.ptx" --kernel map_square --grid 1 --block 64 --arg buf:x:f32:64 \
			--arg buf:y:f32:64 --arg u32:64 --engine "$engine"
		no_signal
		assert_failure 1
		assert_output --partial "stack overflow: the call to vprintf at depth 65"
	done
}

@test "exercise check of a .ptx defining .func vprintf fails the exercise with a sentence, no crash" {
	user_vprintf "$OUT/fake.ptx"
	run "$GPULAB" exercise check 01-map "$OUT/fake.ptx" --db "$DB"
	no_signal
	assert_failure 1
	assert_output --partial "y holds only zeros: the kernel wrote nothing to it"
}

# ---- the compiled engine's cache

saxpy() {
	"$GPULAB" sim "$FX/saxpy.ptx" --kernel saxpy --grid 4 --block 256 --arg i32:1000 --arg f32:2 \
		--arg buf:x:f32:1000:rand --arg buf:y:f32:1000:const:1 --engine compiled "$@"
}

@test "compiled engine cache: a planted object never runs; truncated and swapped ones are rebuilt" {
	have_cc || skip "no C compiler"
	local jit="$XDG_CACHE_HOME/gpulab/jit"
	run saxpy --dump "y=$OUT/y0.bin"
	assert_success
	assert_output --partial "compiled now)"
	local key
	key=$(basename "$(ls "$jit"/*.so)" .so)
	# a shared object whose constructor leaves a mark: planted with no record (same user), it is deleted
	# and the kernel compiled again; nothing of it ran
	printf '#include <stdio.h>\n__attribute__((constructor)) static void mark(void) { fclose(fopen("%s", "w")); }\nint gl_jit_run(void *w) { return 0; }\n' \
		"$OUT/PLANTED-RAN" >"$OUT/planted.c"
	cc -shared -fPIC -o "$OUT/planted.so" "$OUT/planted.c"
	cp "$OUT/planted.so" "$jit/$key.so"
	run saxpy --dump "y=$OUT/y1.bin"
	no_signal
	assert_success
	assert_output --partial "was deleted and compiled again: its size or checksum"
	[ ! -e "$OUT/PLANTED-RAN" ]
	cmp "$OUT/y0.bin" "$OUT/y1.bin"
	# planted by another user: refused, left alone, nothing of it loaded; the interpreter runs the kernel
	if [ "$(id -u)" = 0 ]; then
		cp "$OUT/planted.so" "$jit/$key.so"
		chown 65534 "$jit/$key.so"
		run saxpy --dump "y=$OUT/y1.bin"
		no_signal
		assert_success
		assert_output --partial "nothing of the cache entry was loaded"
		assert_output --partial "belongs to user 65534"
		[ ! -e "$OUT/PLANTED-RAN" ]
		[ "$(stat -c %u "$jit/$key.so")" = 65534 ]
		cmp "$OUT/y0.bin" "$OUT/y1.bin"
		rm -f "$jit/$key.so"
		saxpy >/dev/null
	fi
	# truncated (the SIGBUS of the review): rebuilt, and the next run loads the rebuilt object
	truncate -s 100 "$jit/$key.so"
	run saxpy --dump "y=$OUT/y1.bin"
	no_signal
	assert_success
	assert_output --partial "was deleted and compiled again"
	cmp "$OUT/y0.bin" "$OUT/y1.bin"
	run saxpy
	assert_output --partial "; cached)"
	# swapped: another kernel's object and record under this key; its gl_jit_key gives it away after
	# dlopen, before any call, and the entry is rebuilt
	"$GPULAB" sim "$FX/loop.ptx" --kernel loop_hash --grid 2 --block 128 --arg buf:in:u32:8192:rand \
		--arg buf:out:u32:8192:const:0 --arg i32:10 --engine compiled >/dev/null
	local other
	other=$(basename "$(ls -t "$jit"/*.so | head -1)" .so)
	[ "$other" != "$key" ]
	cp "$jit/$other.so" "$jit/$key.so"
	sed "s/$other/$key/" "$jit/$other.sum" >"$jit/$key.sum"
	run saxpy --dump "y=$OUT/y1.bin"
	no_signal
	assert_success
	assert_output --partial "it is the object of another kernel"
	cmp "$OUT/y0.bin" "$OUT/y1.bin"
}

@test "compiled engine cache: a directory others may write, or a link, is refused and the interpreter runs" {
	have_cc || skip "no C compiler"
	local jit="$XDG_CACHE_HOME/gpulab/jit"
	saxpy >/dev/null
	chmod 777 "$jit"
	run saxpy
	no_signal
	assert_success
	assert_output --partial "the compiled engine's cache $jit is writable by every user (mode 0777)"
	assert_output --partial "run 'chmod go-w $jit'"
	chmod 700 "$jit"
	mv "$jit" "$OUT/elsewhere"
	ln -s "$OUT/elsewhere" "$jit"
	run saxpy
	assert_success
	assert_output --partial "is a symbolic link"
}

# ---- crafted database rows

record() { # a database with a gemm and a flash2 trace
	"$GPULAB" run gemm --variant naive --size 64 --trace --backend sim --db "$DB" >/dev/null
	"$GPULAB" run attention --variant flash2 --seq 64 --dim 32 --trace --backend sim --db "$DB" >/dev/null
}

@test "crafted rows: view gemm's parameters, a warp id and view flash's addresses are refused naming the row" {
	record
	cp "$DB" "$OUT/good.db"
	sqlite3 "$DB" "UPDATE launches SET params_json = '{\"m\":1,\"n\":1,\"k\":64}' WHERE variant = 'naive'"
	local before
	before=$(db_hash)
	run "$GPULAB" view gemm --run 1 --frames 1 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "buffer C is 64 x 64 in the buffer map, but the launch's parameters ({\"m\":1,\"n\":1,\"k\":64}) make it 1 x 1"
	[ "$(db_hash)" = "$before" ]
	cp "$OUT/good.db" "$DB"
	sqlite3 "$DB" "UPDATE trace_events SET warp = 4294967295 WHERE launch_id = 1 AND seq = 3"
	run "$GPULAB" view gemm --run 1 --frames 1 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "the trace of launch 1 has an event (seq 3) with a block, warp"
	cp "$OUT/good.db" "$DB"
	sqlite3 "$DB" "UPDATE trace_events SET addr_base = -1 WHERE launch_id = 2 AND buffer = 'Q'"
	before=$(db_hash)
	run "$GPULAB" view flash --run 2 --frames 1 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "with an address outside the buffer it names"
	[ "$(db_hash)" = "$before" ]
}

@test "crafted rows: a shuffle's source lane, a barrier id and a space/operation pair are checked where loaded" {
	"$GPULAB" run reduce --variant warp_shuffle --size 256 --trace --backend sim --db "$DB" >/dev/null
	cp "$DB" "$OUT/good.db"
	local before
	sqlite3 "$DB" "UPDATE trace_events SET addr_stride = 0, addr_base = 2147483648 WHERE space = 'warp'"
	before=$(db_hash)
	run "$GPULAB" view reduce --run 1 --frames 20 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "with a shuffle source lane above 31"
	[ "$(db_hash)" = "$before" ]
	cp "$OUT/good.db" "$DB"
	sqlite3 "$DB" "UPDATE trace_events SET addr_base = 99 WHERE space = 'cta'"
	run "$GPULAB" view reduce --run 1 --frames 20 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "with a barrier id above 15"
	cp "$OUT/good.db" "$DB"
	sqlite3 "$DB" "UPDATE trace_events SET op = 'shfl' WHERE space = 'global' AND op = 'ld'"
	run "$GPULAB" view reduce --run 1 --frames 20 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "with a space and an operation that do not go together"
	run "$GPULAB" merge "$DB" --into "$OUT/target.db"
	no_signal
	assert_failure 2
	assert_output --partial "shard $DB refused, nothing was merged"
}

@test "crafted rows: report refuses a grid that is not three numbers and parameters that are not JSON" {
	record
	sqlite3 "$DB" "UPDATE launches SET grid = '4294967295,1' WHERE id = 1"
	run "$GPULAB" report 1 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "launch 1 has grid '4294967295,1', not three numbers"
	run "$GPULAB" report 1 --db "$DB" --json
	assert_failure 2
	sqlite3 "$DB" "UPDATE launches SET grid = '2,2,1', params_json = '{\"m\":1]' WHERE id = 1"
	run "$GPULAB" report 1 --db "$DB" --json
	assert_failure 2
	assert_output --partial "not a JSON object"
	sqlite3 "$DB" "UPDATE launches SET params_json = '{\"m\":64,\"n\":64,\"k\":64}' WHERE id = 1;
		INSERT INTO sanitizer_findings (launch_id, seq, kind, tool, severity, space, line, count, address,
		size, block, thread, samples, message) VALUES (1, 0, 'race', 'racecheck', 'error', 'shared', 5, 1, 0,
		4, '0,0,0', '5000,0,0', '[]', 'x'); UPDATE launches SET sanitizer_errors = 1 WHERE id = 1"
	run "$GPULAB" report 1 --db "$DB"
	no_signal
	assert_failure 2
	assert_output --partial "the sanitizer findings of launch 1 name block (0,0,0) thread (5000,0,0), outside the launch"
}

@test "merge and import check what they copy the same way: a crafted shard is refused, the target intact" {
	record
	cp "$DB" "$OUT/shard.db"
	sqlite3 "$OUT/shard.db" "UPDATE trace_events SET warp = 4294967295 WHERE launch_id = 1 AND seq = 3"
	"$GPULAB" run transpose --size 32 --backend sim --db "$OUT/into.db" >/dev/null
	local before
	before=$(sha256sum "$OUT/into.db")
	run "$GPULAB" merge "$OUT/shard.db" --into "$OUT/into.db"
	no_signal
	assert_failure 2
	assert_output --partial "shard $OUT/shard.db refused, nothing was merged"
	assert_output --partial "the trace of launch 1 has an event (seq 3)"
	[ "$(sha256sum "$OUT/into.db")" = "$before" ]
	run "$GPULAB" import "$OUT/shard.db" --db "$OUT/into.db"
	no_signal
	assert_failure 2
	[ "$(sha256sum "$OUT/into.db")" = "$before" ]
}

@test "a shard whose runs is a view (a recursive CTE) or that holds a trigger is refused at once" {
	"$GPULAB" run transpose --size 32 --backend sim --db "$OUT/shard.db" >/dev/null
	cp "$OUT/shard.db" "$OUT/trigger.db"
	sqlite3 "$OUT/shard.db" "ALTER TABLE runs RENAME TO runs_real;
		CREATE VIEW runs AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
		SELECT r.* FROM runs_real r, n;"
	"$GPULAB" run transpose --size 32 --backend sim --db "$OUT/into.db" >/dev/null
	local before
	before=$(sha256sum "$OUT/into.db")
	run timeout 60 "$GPULAB" merge "$OUT/shard.db" --into "$OUT/into.db"
	no_signal
	assert_failure 3
	assert_output --partial "its 'runs' is a view, not a table"
	[ "$(sha256sum "$OUT/into.db")" = "$before" ]
	sqlite3 "$OUT/trigger.db" "CREATE TRIGGER t AFTER UPDATE ON runs BEGIN SELECT 1; END;"
	run timeout 60 "$GPULAB" merge "$OUT/trigger.db" --into "$OUT/into.db"
	no_signal
	assert_failure 2
	assert_output --partial "it has a trigger 't' that is not gpulab's"
	[ "$(sha256sum "$OUT/into.db")" = "$before" ]
}

# ---- sweep directories

make_sweep() { # a local sweep of two transpose jobs in $OUT/sw, already run
	run "$GPULAB" sweep --topic transpose --variant copy --param size=32,64 --backend sim --local \
		--dir "$OUT/sw" --into "$OUT/m.db"
	assert_success
}

@test "sweep: the directory and its subdirectories are created 0700; one others may write is refused" {
	make_sweep
	[ "$(stat -c %a "$OUT/sw")" = 700 ]
	[ "$(stat -c %a "$OUT/sw/logs")" = 700 ]
	[ "$(stat -c %a "$OUT/sw/status")" = 700 ]
	chmod 777 "$OUT/sw"
	for verb in status collect; do
		run "$GPULAB" sweep "$verb" "$OUT/sw" --into "$OUT/m.db"
		no_signal
		assert_failure 3
		assert_output --partial "the sweep directory $OUT/sw is writable by every user (mode 0777)"
	done
	run "$GPULAB" sweep task "$OUT/sw" 0
	assert_failure 3
}

@test "sweep: a tampered jobs.txt runs nothing: another command, a chain of tasks, a file overwritten" {
	make_sweep
	echo precious >"$OUT/precious"
	local before
	before=$(sha256sum "$OUT/m.db")
	# the review's line: `gpulab sim ... --dump o=FILE` overwrote a file
	printf 'sim %s --kernel saxpy --grid 1 --block 32 --arg i32:1 --arg f32:1 --arg buf:x:f32:1 --arg buf:y:f32:1 --dump y=%s\n' \
		"$FX/saxpy.ptx" "$OUT/precious" >"$OUT/sw/jobs.txt"
	run "$GPULAB" sweep task "$OUT/sw" 0
	no_signal
	assert_failure 2
	assert_output --partial "jobs.txt is not the file this sweep wrote (its SHA-256 is not the one in sweep.conf): nothing was run"
	[ "$(cat "$OUT/precious")" = precious ]
	# the digest rewritten to match as well: the line is still not a job the plan makes
	local hex
	hex=$(sha256sum "$OUT/sw/jobs.txt" | cut -d' ' -f1)
	sed -i "s/^jobs_sha256=.*/jobs_sha256=$hex/" "$OUT/sw/sweep.conf"
	run "$GPULAB" sweep task "$OUT/sw" 0
	no_signal
	assert_failure 2
	assert_output --partial "a job starts 'run TOPIC' with a topic of this gpulab, not 'sim"
	[ "$(cat "$OUT/precious")" = precious ]
	# `sweep task DIR 0` as job 0: an unbounded chain before; refused now
	printf 'sweep task %s 0\n' "$OUT/sw" >"$OUT/sw/jobs.txt"
	hex=$(sha256sum "$OUT/sw/jobs.txt" | cut -d' ' -f1)
	sed -i "s/^jobs_sha256=.*/jobs_sha256=$hex/" "$OUT/sw/sweep.conf"
	run timeout 60 "$GPULAB" sweep task "$OUT/sw" 0
	no_signal
	assert_failure 2
	assert_output --partial "not 'sweep task'"
	# a run line with an option the plan never writes (--db, --dump, --json)
	printf 'run transpose --size 32 --db %s\n' "$OUT/other.db" >"$OUT/sw/jobs.txt"
	hex=$(sha256sum "$OUT/sw/jobs.txt" | cut -d' ' -f1)
	sed -i "s/^jobs_sha256=.*/jobs_sha256=$hex/" "$OUT/sw/sweep.conf"
	run "$GPULAB" sweep task "$OUT/sw" 0
	assert_failure 2
	assert_output --partial "not '--db $OUT/other.db'"
	[ ! -e "$OUT/other.db" ]
	[ "$(sha256sum "$OUT/m.db")" = "$before" ]
}

@test "sweep: a FIFO or a link in status/ is refused at once; status and collect never hang" {
	make_sweep
	rm "$OUT/sw/status/task-0"
	mkfifo "$OUT/sw/status/task-0"
	ln -sf "$OUT/elsewhere" "$OUT/sw/status/task-1"
	echo 0 >"$OUT/elsewhere"
	run timeout 30 "$GPULAB" sweep status "$OUT/sw"
	no_signal
	[ "$status" -ne 124 ] # not killed by the timeout
	assert_success
	assert_line "2 tasks: 0 done, 0 failed, 0 running, 0 pending, 0 lost, 2 not run"
	run timeout 30 "$GPULAB" sweep collect "$OUT/sw" --into "$OUT/m.db"
	no_signal
	[ "$status" -ne 124 ]
}

@test "sweep: the spec file and the command line share one validator (ranges, duplicates)" {
	printf 'topic = "transpose"\nshard_ctas = 999999999999999999999\n' >"$OUT/huge.toml"
	run "$GPULAB" sweep "$OUT/huge.toml" --dry-run
	assert_failure 2
	assert_output --partial "huge.toml:2: invalid shard_ctas '999999999999999999999' (expected an integer from 1 to 1048576)"
	run "$GPULAB" sweep --topic transpose --shard-ctas 999999999999999999999 --dry-run
	assert_failure 2
	assert_output --partial "invalid --shard-ctas '999999999999999999999' (expected an integer from 1 to 1048576)"
	printf 'topic = "transpose"\nshard_ctas = 2000000\n' >"$OUT/big.toml"
	run "$GPULAB" sweep "$OUT/big.toml" --dry-run
	assert_failure 2
	assert_output --partial "big.toml:2: shard_ctas 2000000 is out of range (expected 1 to 1048576)"
	run "$GPULAB" sweep --topic transpose --shard-ctas 2000000 --dry-run
	assert_failure 2
	assert_output --partial "--shard-ctas 2000000 is out of range (expected 1 to 1048576)"
	printf 'topic = "transpose"\nvariants = ["naive", "naive"]\n' >"$OUT/dup.toml"
	run "$GPULAB" sweep "$OUT/dup.toml" --dry-run
	assert_failure 2
	assert_output --partial "variant naive is named twice in the sweep's variants"
	run "$GPULAB" sweep --topic transpose --variant naive,naive --dry-run
	assert_failure 2
	assert_output --partial "variant naive is named twice in the sweep's variants"
	printf 'topic = "transpose"\n[params]\nsize = [32, 32]\n' >"$OUT/dupv.toml"
	run "$GPULAB" sweep "$OUT/dupv.toml" --dry-run
	assert_failure 2
	assert_output --partial "parameter size: value 32 is given twice"
	run "$GPULAB" sweep --topic transpose --param size=32,32 --dry-run
	assert_failure 2
	assert_output --partial "parameter size: value 32 is given twice"
}

# ---- resource limits

@test "the instruction budget is per launch: a cooperative kernel spinning in 1000 CTAs stops at it once" {
	cat >"$OUT/coopspin.ptx" <<'PTX'
.version 8.0
.target sm_80
.address_size 64
.visible .entry spin(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .pred %p<2>;
	mov.u32 %r1, %envreg1;
	mov.u32 %r2, 0;
LOOP:
	add.s32 %r2, %r2, 1;
	setp.ne.s32 %p1, %r1, 12345;
	@%p1 bra LOOP;
	ret;
}
PTX
	# a budget per CTA cost 1000 x 2 M warp instructions here (minutes); per launch it is 2 M
	run timeout 60 "$GPULAB" sim "$OUT/coopspin.ptx" --kernel spin --grid 1000 --block 32 --arg buf:out:i32:1 \
		--max-instructions 2000000
	no_signal
	[ "$status" -ne 124 ]
	assert_failure 1
	assert_output --partial "a cooperative launch"
	assert_output --partial "instruction budget of 2000000 warp instructions per launch exhausted"
}

@test "the instruction budget is per launch in an ordinary launch too: the CTAs' instructions add up" {
	# every CTA ends (no loop), but together they pass the budget: the launch stops at the CTA that passed it,
	# the same for any number of threads
	local args=(sim "$FX/saxpy.ptx" --kernel saxpy --grid 64 --block 256 --arg i32:16384 --arg f32:2
		--arg buf:x:f32:16384:rand --arg buf:y:f32:16384:const:1 --max-instructions 2000 --json)
	run --separate-stderr "$GPULAB" "${args[@]}" --threads 1
	assert_failure 1
	local one="$output"
	[ "$(jq -r '.sanitizer[0].kind' <<<"$one")" = budget ]
	[[ "$(jq -r '.sanitizer[0].message' <<<"$one")" == "instruction budget of 2000 warp instructions per launch exhausted: the CTAs up to this one ran "* ]]
	local cta
	cta=$(jq .sim.aborted_cta <<<"$one")
	[ "$cta" -gt 0 ] && [ "$cta" -lt 63 ]
	run --separate-stderr "$GPULAB" "${args[@]}" --threads 2
	assert_failure 1
	[ "$(jq .sim.aborted_cta <<<"$output")" = "$cta" ]
	[ "$(jq '.metrics["smsp__inst_executed.sum"]' <<<"$output")" = "$(jq '.metrics["smsp__inst_executed.sum"]' <<<"$one")" ]
}

@test "an input over 64 MiB is refused before it is read (exit 2, little memory)" {
	truncate -s 1500M "$OUT/huge.ptx"
	run /usr/bin/time -f "peak %M KB" "$GPULAB" sim "$OUT/huge.ptx" --kernel k --grid 1 --block 1
	no_signal
	assert_failure 2
	assert_output --partial "huge.ptx' is 1572864000 bytes, more than the 64 MiB gpulab reads as a source"
	local kb
	kb=$(sed -n 's/^peak \([0-9]*\) KB$/\1/p' <<<"$output")
	[ "$kb" -lt 100000 ]
	truncate -s 1500M "$OUT/huge.cu"
	run "$GPULAB" sim "$OUT/huge.cu" --kernel k --grid 1 --block 1
	assert_failure 2
	assert_output --partial "more than the 64 MiB"
}

# ---- sanitizer gaps

@test "wmma.load and wmma.store from an address that is not 32-byte aligned are findings on both engines" {
	for engine in interp compiled; do
		run "$GPULAB" sim "$FX/hostile_align.ptx" --kernel wm --grid 1 --block 32 --arg buf:a:f16:1024 \
			--arg u32:0 --engine "$engine"
		assert_success
		assert_output --partial "ERROR SUMMARY: 0 errors"
		run "$GPULAB" sim "$FX/hostile_align.ptx" --kernel wm --grid 1 --block 32 --arg buf:a:f16:1024 \
			--arg u32:16 --engine "$engine"
		no_signal
		assert_failure 1
		assert_output --partial "misaligned wmma.load read of a matrix at 0x7f0000000010: it must be 32-byte (256-bit) aligned"
		assert_output --partial "misaligned wmma.store write of a matrix at 0x7f0000000010"
		assert_output --partial "ERROR SUMMARY: 64 errors"
	done
}

@test "cp.async with a src-size larger than its cp-size is a finding and copies nothing" {
	run "$GPULAB" sim "$FX/hostile_align.ptx" --kernel cpa --grid 1 --block 32 --arg buf:a:f32:256 --arg u32:16
	assert_success
	run "$GPULAB" sim "$FX/hostile_align.ptx" --kernel cpa --grid 1 --block 32 --arg buf:a:f32:256 --arg u32:20 --json
	no_signal
	assert_failure 1
	[ "$(jq -r '.sanitizer[0].kind' <<<"$output")" = invalid-size ]
	[ "$(jq -r '.sanitizer[0].tool' <<<"$output")" = memcheck ]
	[ "$(jq -r '.sanitizer[0].count' <<<"$output")" = 32 ]
	[[ "$(jq -r '.sanitizer[0].message' <<<"$output")" == "cp.async src-size 20 is larger than its cp-size 16"* ]]
	run "$GPULAB" sim "$FX/hostile_align.ptx" --kernel cpa --grid 1 --block 32 --arg buf:a:f32:256 --arg u32:20 \
		--tool racecheck
	assert_success # a memcheck finding
}

# ---- the other directories gpulab writes: the nvcc cache, temporary directories

@test "nvcc cache: a directory others may write is not used, a planted link is replaced, never read" {
	command -v "${GPULAB_NVCC:-nvcc}" >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || skip "no nvcc"
	local args=(sim "$FX/saxpy.cu" --kernel saxpy --grid 1 --block 32 --arg i32:32 --arg f32:2
		--arg buf:x:f32:32:seq --arg buf:y:f32:32:seq --verbose)
	run "$GPULAB" "${args[@]}"
	assert_success
	local dir="$XDG_CACHE_HOME/gpulab/ptx"
	[ "$(stat -c %a "$dir")" = 700 ]
	run "$GPULAB" "${args[@]}"
	assert_output --partial "nvcc cache: hit"
	chmod 777 "$dir"
	run "$GPULAB" "${args[@]}"
	assert_success
	assert_output --partial "nvcc cache: the nvcc cache $dir is writable by every user (mode 0777)"
	refute_output --partial "nvcc cache: hit"
	chmod 700 "$dir"
	# the cached PTX swapped for a link to another file: not read (nvcc runs), and replaced by a file
	local ptx
	ptx=$(ls "$dir"/*.ptx)
	echo "not PTX" >"$OUT/other.txt"
	ln -sf "$OUT/other.txt" "$ptx"
	run "$GPULAB" "${args[@]}"
	assert_success
	refute_output --partial "nvcc cache: hit"
	[ -f "$ptx" ] && [ ! -L "$ptx" ]
	[ "$(cat "$OUT/other.txt")" = "not PTX" ]
}

@test "temporary directories are private: TMPDIR's gpulab directories are 0700 and gone afterwards" {
	command -v "${GPULAB_NVCC:-nvcc}" >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || skip "no nvcc"
	mkdir -p "$OUT/tmp"
	TMPDIR="$OUT/tmp" run "$GPULAB" sim "$FX/saxpy.cu" --kernel saxpy --grid 1 --block 32 --arg i32:32 \
		--arg f32:2 --arg buf:x:f32:32:seq --arg buf:y:f32:32:seq --no-cache
	assert_success
	[ -z "$(ls -A "$OUT/tmp")" ]
}
