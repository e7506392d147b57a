#!/usr/bin/env bats
# gpulab run prints each variant's row as soon as that variant has run: the rows reach a file while later
# variants still run, line up whatever their names, and the lines that need every row come after them.

setup() {
	load test_helper
	common_setup
}

ROW_RE='^naive +yes +[0-9.]+ +[0-9.]+ +- +- +0 +0  n/a \(simulated\)$'

# The first variant's row is in the file while the run goes on.  Non-streamed output would write the
# table at the end, all rows at once: naive's row would come with warptile's (and the process would be
# gone).  The process is stopped as soon as the row is seen, so the check holds on a slow machine too:
# the six later variants take far longer than one 50 ms poll.
@test "run --variant all: the first variant's row is written while the others still run" {
	local out="$BATS_TEST_TMPDIR/out.txt"
	"$GPULAB" run gemm --variant all --size 256 --backend sim --db "$DB" >"$out" 2>/dev/null &
	local pid=$! seen=0
	for _ in $(seq 1 2400); do # up to 120 s
		if grep -Eq "$ROW_RE" "$out"; then
			seen=1
			break
		fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	local alive=0
	kill "$pid" 2>/dev/null && alive=1
	wait "$pid" || true
	[ "$seen" = 1 ]
	[ "$alive" = 1 ] # the row came before the run ended
	run cat "$out"
	assert_line --index 0 --regexp '^gemm  \{"m":256,"n":256,"k":256\}  backend sim  '
	assert_line --index 1 --regexp '^variant +verified  gld s/req'
	assert_line --index 2 --regexp "$ROW_RE"
	refute_output --partial "warptile"
	refute_output --partial "stored as run"
}

@test "a finished run: rows, then the lines that need every row, then the run it was stored as" {
	run --separate-stderr "$GPULAB" run transpose --size 64 --backend sim --db "$DB"
	assert_success
	assert_line --index 0 --regexp '^transpose  \{"rows":64,"cols":64\}  backend sim  gpulab PTX simulator'
	assert_line --index 1 --regexp '^variant      verified'
	assert_line --index 2 --regexp '^copy         yes'
	assert_line --index 6 --regexp '^swizzled     yes'
	assert_line --index 7 --partial 'note (every variant)'
	assert_equal "${lines[-1]}" "stored as run 1 ($GPULAB report 1 --db $DB)"
	# report shows the same rows under the run's id
	run --separate-stderr "$GPULAB" report 1 --db "$DB"
	assert_success
	assert_line --index 0 --regexp '^run 1  transpose  \{"rows":64,"cols":64\}  backend sim'
	assert_line --index 6 --regexp '^swizzled     yes'
}

@test "variant names longer than the column widen it before any row is printed" {
	run --separate-stderr "$GPULAB" run conv2d --variant direct,implicit_gemm_mma --size 8 --backend sim --db "$DB"
	assert_success
	# every row and the header start their second column at the same place
	assert_line --index 1 --regexp '^variant           verified'
	assert_line --index 2 --regexp '^direct            yes'
	assert_line --index 3 --regexp '^implicit_gemm_mma yes'
}

@test "--json and --csv are whole documents printed once the run is stored" {
	run --separate-stderr "$GPULAB" run transpose --variant naive,copy --size 32 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq -r '[.launches[].variant] | join(",")' <<<"$output")" = naive,copy ]
	run --separate-stderr "$GPULAB" run transpose --variant naive,copy --size 32 --backend sim --db "$DB" --csv
	assert_success
	[[ "${lines[0]}" == run_id,backend,topic,variant,* ]]
	[ "${#lines[@]}" = 3 ]
	refute_output --partial "stored as run"
}

@test "the run's last line is a command that works when pasted: the binary as started, the database named" {
	cd "$BATS_TEST_TMPDIR"
	ln -s "$GPULAB" ./g
	# the demo's way: the database in $GPULAB_DB, which the shell the hint is pasted in may not have
	run --separate-stderr env GPULAB_DB="$BATS_TEST_TMPDIR/demo.db" ./g run transpose --size 32 --variant copy --backend sim
	assert_success
	assert_equal "${lines[-1]}" "stored as run 1 (./g report 1 --db $BATS_TEST_TMPDIR/demo.db)"
	hint=$(sed -n 's/^stored as run 1 (\(.*\))$/\1/p' <<<"${lines[-1]}")
	run --separate-stderr env -u GPULAB_DB bash -c "$hint"
	assert_success
	assert_line --index 0 --regexp '^run 1  transpose'
	# a path with a space is quoted
	mkdir "my dir"
	run --separate-stderr ./g run transpose --size 32 --variant copy --backend sim --db "my dir/x.db"
	assert_equal "${lines[-1]}" "stored as run 1 (./g report 1 --db 'my dir/x.db')"
	# found on $PATH and the default database: plain gpulab report N
	mkdir bin && ln -s "$GPULAB" bin/gpulab
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/bin:$PATH" gpulab run transpose --size 32 --variant copy --backend sim
	assert_equal "${lines[-1]}" "stored as run 1 (gpulab report 1)"
}
