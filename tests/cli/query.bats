#!/usr/bin/env bats
# gpulab query: read-only SQL on the results database, its output formats and its refusals.
# The fixture database is made with the sqlite3 CLI from data/schema.sql and the migration steps after it
# (data/migrate_*.sql), so these tests need no `gpulab run`.

bats_require_minimum_version 1.5.0

setup() {
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
	GPULAB="${GPULAB:-$BATS_TEST_DIRNAME/../../build/gpulab}"
	SCHEMA="$BATS_TEST_DIRNAME/../../data/schema.sql"
	DB="$BATS_TEST_TMPDIR/gpulab.db"
	unset GPULAB_DB XDG_DATA_HOME
	export HOME="$BATS_TEST_TMPDIR/home"
	export GPULAB_BUSY_TIMEOUT_MS=300
}

# A gpulab database with one run of two transpose launches.
make_fixture() {
	local db="${1:-$DB}"
	sqlite3 "$db" <"$SCHEMA"
	local step version=1
	for step in "$(dirname "$SCHEMA")"/migrate_*.sql; do # the steps in order: migrate_2, migrate_3, ...
		sqlite3 "$db" <"$step"
		version=$((version + 1))
	done
	sqlite3 "$db" "PRAGMA user_version = $version;"
	sqlite3 "$db" <<'SQL'
INSERT INTO runs (id, started_at, finished_at, status, backend, device, cc, gpulab_version, host, argv)
VALUES (1, '2025-01-31T12:00:00Z', '2025-01-31T12:00:05Z', 'ok', 'sim', 'PTX simulator', '8.0', '0.1.0',
        'box', 'gpulab run transpose');
INSERT INTO launches (id, run_id, topic, variant, params_json, grid, block, verified, max_abs_err, note)
VALUES (1, 1, 'transpose', 'naive', '{"rows":1024,"cols":1024}', '32,32,1', '32,8,1', 1, 0, 'plain'),
       (2, 1, 'transpose', 'smem', '{"rows":1024,"cols":1024}', '32,32,1', '32,8,1', 1, 0, 'say "hi", twice');
INSERT INTO metrics (launch_id, name, value, unit, source) VALUES
  (1, 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 32768, '', 'sim'),
  (1, 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 1048576, 'sector', 'sim'),
  (2, 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 32768, '', 'sim'),
  (2, 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum', 131072, 'sector', 'sim'),
  (2, 'smsp__inst_executed_op_shared_ld.sum', 1000, '', 'sim'),
  (2, 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 500, '', 'sim');
SQL
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

@test "query prints an aligned table with a header" {
	make_fixture
	run -0 "$GPULAB" query "SELECT id, variant, note FROM launches ORDER BY id" --db "$DB"
	assert_line --index 0 'id  variant  note'
	assert_line --index 1 '--  -------  ---------------'
	assert_line --index 2 ' 1  naive    plain'
	assert_line --index 3 ' 2  smem     say "hi", twice'
	assert_equal "${#lines[@]}" 4
}

@test "query --json prints an array of objects with numbers as numbers and NULL as null" {
	make_fixture
	run -0 --separate-stderr "$GPULAB" query --json --db "$DB" \
		"SELECT id, variant, duration_ns, max_abs_err, note FROM launches ORDER BY id"
	assert_output '[{"id":1,"variant":"naive","duration_ns":null,"max_abs_err":0,"note":"plain"},{"id":2,"variant":"smem","duration_ns":null,"max_abs_err":0,"note":"say \"hi\", twice"}]'
	echo "$output" | jq -e '.[1].id == 2 and .[0].duration_ns == null' >/dev/null
}

@test "query --csv quotes fields as RFC 4180 says, with a header row" {
	make_fixture
	run -0 --separate-stderr "$GPULAB" query --csv --db "$DB" "SELECT id, note, NULL AS empty FROM launches ORDER BY id"
	assert_line --index 0 'id,note,empty'
	assert_line --index 1 '1,plain,'
	assert_line --index 2 '2,"say ""hi"", twice",'
}

@test "the launch_summary view pivots sectors per request and conflicts per instruction" {
	make_fixture
	run -0 --separate-stderr "$GPULAB" query --csv --db "$DB" \
		"SELECT variant, gst_sectors_per_request, sld_conflicts_per_instruction FROM launch_summary ORDER BY launch_id"
	assert_output "variant,gst_sectors_per_request,sld_conflicts_per_instruction
naive,32,
smem,4,0.5"
	run -0 "$GPULAB" query --csv --db "$DB" "SELECT count(*) AS n FROM latest_launches"
	assert_output "n
2"
}

@test "query reads the SQL from standard input with -" {
	make_fixture
	run -0 --separate-stderr bash -c "echo 'SELECT count(*) AS n FROM runs' | '$GPULAB' query - --csv --db '$DB'"
	assert_output "n
1"
}

@test "query finds the database through GPULAB_DB, XDG_DATA_HOME and HOME" {
	make_fixture
	GPULAB_DB="$DB" run -0 "$GPULAB" query --csv "SELECT count(*) AS n FROM launches"
	assert_output "n
2"
	mkdir -p "$BATS_TEST_TMPDIR/xdg/gpulab"
	make_fixture "$BATS_TEST_TMPDIR/xdg/gpulab/gpulab.db"
	XDG_DATA_HOME="$BATS_TEST_TMPDIR/xdg" run -0 "$GPULAB" query --csv "SELECT count(*) AS n FROM runs"
	assert_output "n
1"
	run -2 "$GPULAB" query "SELECT 1"
	assert_output --partial "no database exists at $HOME/.local/share/gpulab/gpulab.db yet"
	# --db wins over the environment
	GPULAB_DB="$BATS_TEST_TMPDIR/none.db" run -0 "$GPULAB" query --csv --db "$DB" "SELECT count(*) AS n FROM runs"
	assert_output "n
1"
}

@test "a missing database is a clear usage error, and query does not create it" {
	run -2 "$GPULAB" query "SELECT 1" --db "$BATS_TEST_TMPDIR/nope/gpulab.db"
	assert_output "gpulab: no database exists at $BATS_TEST_TMPDIR/nope/gpulab.db yet: run 'gpulab run TOPIC' first to record a run (or pass --db PATH / set GPULAB_DB to an existing database)"
	[ ! -e "$BATS_TEST_TMPDIR/nope" ]
}

@test "write statements are refused and the database stays byte-identical" {
	make_fixture
	local before
	before=$(sha "$DB")
	local -a stmts=(
		"DELETE FROM runs"
		"INSERT INTO lesson_progress VALUES ('transpose', 1, 'done', 'now')"
		"UPDATE runs SET status = 'bad'"
		"DROP TABLE metrics"
		"CREATE TABLE t(x)"
		"ATTACH '$BATS_TEST_TMPDIR/other.db' AS other"
		"PRAGMA user_version = 7"
		"VACUUM"
	)
	local -a words=(DELETE INSERT UPDATE DROP CREATE ATTACH PRAGMA VACUUM)
	for n in "${!stmts[@]}"; do # not $i: bats' run changes it
		run -2 --separate-stderr "$GPULAB" query "${stmts[$n]}" --db "$DB"
		assert_output ''
		[[ "$stderr" == "gpulab: query is read-only: '${words[$n]}' statements"*" are refused; "* ]] ||
			fail "unexpected message for ${stmts[$n]}: $stderr"
		assert_equal "$(sha "$DB")" "$before"
	done
	[ ! -e "$BATS_TEST_TMPDIR/other.db" ]
	run -0 "$GPULAB" query --csv --db "$DB" "SELECT count(*) AS n FROM runs"
	assert_output "n
1"
}

@test "more than one statement is refused" {
	make_fixture
	local before
	before=$(sha "$DB")
	run -2 "$GPULAB" query "SELECT 1; DELETE FROM runs" --db "$DB"
	assert_output --partial "gpulab: query runs exactly one SQL statement, but more follows the first: 'DELETE FROM runs'"
	assert_equal "$(sha "$DB")" "$before"
	run -0 "$GPULAB" query "SELECT 1 AS one; -- a trailing comment" --db "$DB" --csv
	assert_output "one
1"
}

@test "an SQL syntax error gives SQLite's message and exit 2" {
	make_fixture
	local before
	before=$(sha "$DB")
	run -2 "$GPULAB" query "SELEC * FROM runs" --db "$DB"
	assert_output 'gpulab: SQL error: near "SELEC": syntax error'
	run -2 "$GPULAB" query "SELECT * FROM no_such_table" --db "$DB"
	assert_output 'gpulab: SQL error: no such table: no_such_table'
	assert_equal "$(sha "$DB")" "$before"
}

@test "a file that is not a SQLite database is refused untouched (exit 3)" {
	printf 'my notes\n' >"$BATS_TEST_TMPDIR/notes.txt"
	local before
	before=$(sha "$BATS_TEST_TMPDIR/notes.txt")
	run -3 "$GPULAB" query "SELECT 1" --db "$BATS_TEST_TMPDIR/notes.txt"
	assert_output --partial "gpulab: $BATS_TEST_TMPDIR/notes.txt is not a SQLite database"
	assert_output --partial "pass --db PATH"
	assert_equal "$(sha "$BATS_TEST_TMPDIR/notes.txt")" "$before"
}

@test "another program's SQLite database is refused untouched (exit 3)" {
	local other="$BATS_TEST_TMPDIR/other.db"
	sqlite3 "$other" "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers(name) VALUES ('ada');"
	local before
	before=$(sha "$other")
	run -3 "$GPULAB" query "SELECT * FROM customers" --db "$other"
	assert_output --partial "gpulab: $other is a SQLite database but not gpulab's"
	assert_equal "$(sha "$other")" "$before"
	[ ! -e "$other-wal" ]
}

@test "a database from a newer gpulab asks to upgrade (exit 3)" {
	make_fixture
	sqlite3 "$DB" "PRAGMA user_version = 99"
	local before
	before=$(sha "$DB")
	run -3 "$GPULAB" query "SELECT 1" --db "$DB"
	assert_output --partial "gpulab: database $DB has schema version 99, newer than this gpulab"
	assert_output --partial "upgrade gpulab"
	assert_equal "$(sha "$DB")" "$before"
}

@test "a database locked past the busy timeout is an environment error (exit 3)" {
	make_fixture # rollback-journal mode: an exclusive lock blocks readers
	local before
	before=$(sha "$DB")
	(
		echo "BEGIN EXCLUSIVE;"
		sleep 3
		echo "COMMIT;"
	) | sqlite3 "$DB" 3>&- &
	local holder=$!
	sleep 0.5
	run -3 "$GPULAB" query "SELECT count(*) FROM runs" --db "$DB"
	assert_output --partial "gpulab: database $DB is locked by another process (waited 300 ms"
	wait "$holder"
	assert_equal "$(sha "$DB")" "$before"
}

@test "a directory as --db is an environment error" {
	run -3 "$GPULAB" query "SELECT 1" --db "$BATS_TEST_TMPDIR"
	assert_output --partial "is a directory"
}

@test "query without SQL, with two SQL arguments, or with an unknown option is a usage error" {
	make_fixture
	run -2 "$GPULAB" query --db "$DB"
	assert_output --partial "query needs one SQL statement"
	run -2 "$GPULAB" query "SELECT 1" "SELECT 2" --db "$DB"
	assert_output --partial "query takes one SQL argument but got 2"
	run -2 "$GPULAB" query "SELECT 1" --jsn --db "$DB"
	assert_output --partial "did you mean '--json'?"
	run -2 "$GPULAB" query "   " --db "$DB"
	assert_output --partial "no SQL statement given"
}

@test "query --help lists the tables and views" {
	run -0 "$GPULAB" query --help
	assert_output --partial "usage: gpulab query SQL"
	assert_output --partial "launch_summary"
}
