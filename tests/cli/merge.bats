#!/usr/bin/env bats
# gpulab merge and --cta-range: shards merged into one database keep their runs' UUIDs and say where they
# came from; merging twice adds nothing; a foreign or newer shard is refused (exit 3) with the target
# byte-identical; a GEMM simulated in 4 CTA ranges and merged has exactly the unsharded run's counts.

setup() {
	load test_helper
	common_setup
	T=$BATS_TEST_TMPDIR
}

# metrics DB [WHERE]: every metric of the latest launch matching WHERE, as "name|value" lines
metrics() {
	# (a launch's footprint, gpulab__dram_sectors_unique_*, is a union over CTAs, not a sum: shards leave it out)
	sqlite3 "$1" "SELECT name, value FROM metrics WHERE launch_id = (SELECT MAX(id) FROM launches ${2:-})
		AND name NOT LIKE 'gpulab__dram_sectors_unique_%' ORDER BY name"
}

@test "merge: shards into one database, twice is idempotent" {
	"$GPULAB" run transpose --size 64 --variant naive,coalesced --backend sim --db "$T/a.db" >/dev/null 2>&1
	"$GPULAB" run reduce --size 4096 --backend sim --db "$T/b.db" >/dev/null 2>&1
	run "$GPULAB" merge "$T/a.db" "$T/b.db" --into "$T/all.db"
	assert_success
	assert_line "merged 1 run from $T/a.db (0 already there)"
	assert_line "2 runs merged into $T/all.db"
	[ "$(sqlite3 "$T/all.db" 'SELECT count(*) FROM runs')" = 2 ]
	[ "$(sqlite3 "$T/all.db" 'SELECT count(*) FROM launches')" = "$(( 2 + $(sqlite3 "$T/b.db" 'SELECT count(*) FROM launches') ))" ]
	[ "$(sqlite3 "$T/all.db" 'SELECT uuid FROM runs ORDER BY id LIMIT 1')" = "$(sqlite3 "$T/a.db" 'SELECT uuid FROM runs')" ]
	[ "$(sqlite3 "$T/all.db" 'SELECT merged_from FROM runs ORDER BY id LIMIT 1')" = "$T/a.db" ]
	metrics "$T/a.db" > "$T/a.txt"
	metrics "$T/all.db" "WHERE variant = 'coalesced'" > "$T/m.txt"
	[ -s "$T/a.txt" ] && cmp "$T/a.txt" "$T/m.txt"
	local before
	before=$(sha256sum < "$T/all.db")
	run "$GPULAB" merge "$T/a.db" "$T/b.db" --into "$T/all.db"
	assert_success
	assert_line "merged 0 runs from $T/a.db (1 already there)"
	assert_line "0 runs merged into $T/all.db"
	[ "$(sqlite3 "$T/all.db" 'SELECT count(*) FROM runs')" = 2 ]
	[ "$(sqlite3 "$T/all.db" 'SELECT count(*) FROM metrics')" = "$(( $(sqlite3 "$T/a.db" 'SELECT count(*) FROM metrics') + $(sqlite3 "$T/b.db" 'SELECT count(*) FROM metrics') ))" ]
}

@test "merge: a foreign or newer shard is refused with exit 3 and the target stays byte-identical" {
	"$GPULAB" run transpose --size 64 --variant naive --backend sim --db "$T/a.db" >/dev/null 2>&1
	"$GPULAB" run transpose --size 64 --variant copy --backend sim --db "$T/b.db" >/dev/null 2>&1
	"$GPULAB" merge "$T/a.db" --into "$T/all.db" >/dev/null
	cp "$T/all.db" "$T/before.db"
	sqlite3 "$T/foreign.db" "CREATE TABLE runs(id INTEGER PRIMARY KEY, who TEXT)"
	run "$GPULAB" merge "$T/b.db" "$T/foreign.db" --into "$T/all.db"
	assert_failure 3
	assert_output --partial "shard $T/foreign.db refused, nothing was merged"
	assert_output --partial "not gpulab's"
	cmp "$T/all.db" "$T/before.db"
	sqlite3 "$T/newer.db" "PRAGMA application_id = 1196444738; PRAGMA user_version = 99"
	run "$GPULAB" merge "$T/newer.db" --into "$T/all.db"
	assert_failure 3
	assert_output --partial "newer than this gpulab"
	cmp "$T/all.db" "$T/before.db"
	echo "not a database" > "$T/text.db"
	run "$GPULAB" merge "$T/text.db" --into "$T/all.db"
	assert_failure 3
	cmp "$T/all.db" "$T/before.db"
}

@test "merge: usage errors" {
	run "$GPULAB" merge --into "$T/x.db"
	assert_failure 2
	assert_output --partial "merge needs at least one SHARD"
	"$GPULAB" run transpose --size 32 --variant copy --backend sim --db "$T/a.db" >/dev/null 2>&1
	run "$GPULAB" merge "$T/a.db"
	assert_failure 2
	assert_output --partial "merge needs --into DB"
	run "$GPULAB" merge "$T/missing.db" --into "$T/x.db"
	assert_failure
	[ ! -e "$T/x.db" ]
}

@test "--cta-range: GEMM in 4 CTA ranges, merged, has the unsharded run's counts" {
	"$GPULAB" run gemm --variant blocktile1d --size 128 --backend sim --db "$T/whole.db" >/dev/null 2>&1
	for r in 0:1 1:2 2:3 3:4; do
		run "$GPULAB" run gemm --variant blocktile1d --size 128 --backend sim --cta-range "$r" --db "$T/s$r.db"
		assert_success
		assert_output --partial "(--cta-range): partial counts, outputs not verified"
	done
	[ "$(sqlite3 "$T/s0:1.db" 'SELECT cta_first, cta_end, verified IS NULL FROM launches')" = "0|1|1" ]
	run "$GPULAB" merge "$T"/s*.db --into "$T/all.db"
	assert_success
	assert_line "assembled 1 sharded launch from their CTA ranges (counts summed)"
	assert_line --regexp "^launch [0-9]+: outputs joined from CTA-disjoint writes passed verification$"
	[ "$(sqlite3 "$T/all.db" 'SELECT verified FROM launches WHERE cta_end IS NULL')" = 1 ]
	[ "$(sqlite3 "$T/all.db" "SELECT count(*) FROM metrics m JOIN launches l ON l.id = m.launch_id
		WHERE l.cta_end IS NULL AND m.name LIKE 'gpulab__dram_sectors_unique_%'")" = 0 ]
	metrics "$T/whole.db" > "$T/whole.txt"
	metrics "$T/all.db" "WHERE cta_end IS NULL" > "$T/assembled.txt"
	[ "$(wc -l < "$T/whole.txt")" -gt 20 ]
	diff "$T/whole.txt" "$T/assembled.txt"
	# a partial launch alone is not the whole: its counts differ
	! cmp -s <(metrics "$T/s0:1.db") "$T/whole.txt"
	run "$GPULAB" merge "$T"/s*.db --into "$T/all.db"
	assert_line "merged 0 runs from $T/s0:1.db (1 already there)"
	[ "$(sqlite3 "$T/all.db" 'SELECT count(*) FROM launches WHERE cta_end IS NULL')" = 1 ]
}

@test "--cta-range: shards of an atomic reduction write the same words: counts assembled, outputs not verified" {
	for r in 0:8 8:16; do # 16 CTAs
		"$GPULAB" run reduce --variant atomic --n 4096 --backend sim --cta-range "$r" --db "$T/r$r.db" >/dev/null 2>&1
	done
	run "$GPULAB" merge "$T"/r*.db --into "$T/r.db"
	assert_success
	refute_output --partial "outputs joined"
	[ "$(sqlite3 "$T/r.db" 'SELECT verified IS NULL FROM launches WHERE cta_end IS NULL')" = 1 ]
	sqlite3 "$T/r.db" 'SELECT note FROM launches WHERE cta_end IS NULL' | grep -q "outputs not verified: the shards' writes overlap, not CTA-disjoint"
}

@test "--cta-range: refused when malformed, outside the grid, with sampling or on the GPU backend" {
	bad_input 2 "--cta-range '4': expected A:B" run gemm --size 128 --backend sim --cta-range 4 --db "$DB"
	bad_input 2 "--cta-range 3:3 is empty" run gemm --size 128 --backend sim --cta-range 3:3 --db "$DB"
	bad_input 2 "does not fit the grid of 16 CTAs (4,4,1)" run gemm --variant smem --size 128 --backend sim --cta-range 0:17 --db "$DB"
	bad_input 2 "exclude each other" run gemm --size 128 --backend sim --cta-range 0:2 --sample-ctas 2 --db "$DB"
	bad_input 2 "--cta-range simulates part of a grid: it needs --backend sim" run gemm --size 128 --backend cuda --cta-range 0:2 --db "$DB"
}

@test "sim --cta-range: a shard of a standalone kernel is stored as partial" {
	run "$GPULAB" sim "$BATS_TEST_DIRNAME/../fixtures/sim/saxpy.ptx" --kernel _Z5saxpyifPKfPf --grid 8 --block 128 \
		--arg i32:1024 --arg f32:1 --arg buf:x:f32:1024 --arg buf:y:f32:1024 --cta-range 2:5 --db "$DB"
	assert_success
	[ "$(sqlite3 "$DB" 'SELECT cta_first, cta_end, note FROM launches')" = "2|5|CTAs 2..4 of 8 only (--cta-range): partial counts" ]
}
