#!/usr/bin/env bats
# The results database under pressure and against files that are not gpulab's: concurrent writers all get
# their runs stored (waiting out each other's locks), a run whose wait runs out is spooled beside the
# database and `gpulab import` stores it, foreign, damaged, newer and unwritable databases are refused
# before anything is written, and `gpulab doctor` reaches the same verdict as `gpulab run`.

setup() {
	load test_helper
	common_setup
	unset GPULAB_LOCK_WAIT_S GPULAB_BUSY_TIMEOUT_MS
}

teardown() {
	[ -z "${HOLDER:-}" ] || kill "$HOLDER" 2>/dev/null || true
	[ -z "${RO_TOP:-}" ] || { chmod -R u+w "$RO_TOP"; rm -rf "$RO_TOP"; }
}

# runs DB: how many runs the database holds
runs() {
	"$GPULAB" query "SELECT count(*) FROM runs" --csv --db "$1" | sed -n 2p
}

# writers N [ENV...]: N concurrent traced runs on $DB; their exit codes in $BATS_TEST_TMPDIR/rc.*
writers() {
	local n=$1 i
	shift
	for i in $(seq "$n"); do
		(
			env "$@" "$GPULAB" run transpose --size 64 --trace --backend sim --db "$DB" \
				>/dev/null 2>"$BATS_TEST_TMPDIR/err.$i"
			echo $? >"$BATS_TEST_TMPDIR/rc.$i"
		) &
	done
	wait
}

assert_all_stored() { # n
	local i
	for i in $(seq "$1"); do
		if [ "$(cat "$BATS_TEST_TMPDIR/rc.$i")" != 0 ]; then
			cat "$BATS_TEST_TMPDIR/err.$i"
			return 1
		fi
	done
	[ "$(runs "$DB")" = "$1" ]
	# every run has its launches and their traces
	run "$GPULAB" query "SELECT count(DISTINCT l.run_id), count(DISTINCT l.id) FROM launches l
		JOIN trace_events t ON t.launch_id = l.id" --csv --db "$DB"
	assert_line "$1,$(($1 * 5))"
}

# hold_lock SECONDS: another process holds the database's write lock for SECONDS (returns once it does)
hold_lock() {
	python3 -c '
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("COMMIT")' "$DB" "$1" >"$BATS_TEST_TMPDIR/holder.out" &
	HOLDER=$!
	local i
	for i in $(seq 100); do
		grep -q locked "$BATS_TEST_TMPDIR/holder.out" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

@test "16 concurrent traced writers on one new database: every run stored" {
	writers 16
	assert_all_stored 16
}

@test "16 concurrent traced writers, each sqlite wait 1 ms: the retry loop still stores every run" {
	# a 1 ms busy timeout makes nearly every transaction collide (without the retry, most exit 3)
	writers 16 GPULAB_BUSY_TIMEOUT_MS=1
	assert_all_stored 16
}

@test "a writer waits out a long lock and says so every few seconds" {
	"$GPULAB" run transpose --size 32 --backend sim --db "$DB" >/dev/null 2>&1
	hold_lock 7
	GPULAB_BUSY_TIMEOUT_MS=500 run --separate-stderr "$GPULAB" run transpose --size 64 --trace --backend sim --db "$DB"
	assert_success
	[[ "$stderr" == *"is locked by another process; still waiting to store the run"* ]]
	[ "$(runs "$DB")" = 2 ]
}

@test "a lock that outlasts the wait: the run is spooled beside the database, gpulab import stores it once" {
	"$GPULAB" run transpose --size 32 --backend sim --db "$DB" >/dev/null 2>&1
	hold_lock 4
	GPULAB_LOCK_WAIT_S=1 GPULAB_BUSY_TIMEOUT_MS=100 run --separate-stderr "$GPULAB" run transpose --size 64 \
		--trace --backend sim --db "$DB"
	assert_failure 3
	[[ "$stderr" == *"stayed locked by another process for 1 s while waiting to store the run"* ]]
	spool=$(ls "$DB".spool-*.db)
	[[ "$stderr" == *"the run was saved to $spool instead: store it with 'gpulab import $spool --db $DB'"* ]]
	wait "$HOLDER"
	[ "$(runs "$DB")" = 1 ]
	events=$("$GPULAB" query "SELECT count(*) FROM trace_events" --csv --db "$spool" | sed -n 2p)
	[ "$events" -gt 0 ]
	run "$GPULAB" import "$spool" --db "$DB"
	assert_success
	assert_output "imported 1 run from $spool into $DB (0 already stored)"
	[ "$(runs "$DB")" = 2 ]
	run "$GPULAB" query "SELECT count(*) FROM trace_events t JOIN launches l ON l.id = t.launch_id
		WHERE l.run_id = 2" --csv --db "$DB"
	assert_line "$events"
	run "$GPULAB" import "$spool" --db "$DB"
	assert_success
	assert_output "imported 0 runs from $spool into $DB (1 already stored)"
	[ "$(runs "$DB")" = 2 ]
	# the stored run shows as any other
	run "$GPULAB" report 2 --db "$DB"
	assert_success
	assert_output --partial "transpose"
}

@test "import: usage and refusals" {
	run "$GPULAB" import --db "$DB"
	assert_failure 2
	assert_output --partial "import needs the FILE to import"
	echo "not a database" >"$BATS_TEST_TMPDIR/notes.txt"
	bad_input 3 "is not a SQLite database" import "$BATS_TEST_TMPDIR/notes.txt" --db "$DB"
	bad_input 2 "is the database itself" import "$DB" --db "$DB"
}

@test "a foreign database with tables named like gpulab's is refused byte-identical, not switched to WAL" {
	f="$BATS_TEST_TMPDIR/lookalike.db"
	sqlite3 "$f" "PRAGMA user_version = 1; CREATE TABLE runs(id INTEGER PRIMARY KEY, who TEXT);
		CREATE TABLE launches(id INTEGER PRIMARY KEY); CREATE TABLE metrics(launch_id, name);
		INSERT INTO runs(who) VALUES ('ada');"
	before=$(sha256sum "$f")
	for cmd in "run transpose --size 32 --backend sim" "report" "query 'SELECT 1'" "view coalesce --topic transpose --frames 1" \
		"lesson list"; do
		eval "run \"\$GPULAB\" $cmd --db \"\$f\""
		assert_failure 3
		assert_output --partial "$f is a SQLite database but not gpulab's"
		[ "$(sha256sum "$f")" = "$before" ]
	done
	[ "$(sqlite3 "$f" 'PRAGMA journal_mode')" = delete ]
	[ ! -e "$f-wal" ]
	# gpulab's application id with other columns is refused too
	g="$BATS_TEST_TMPDIR/forged.db"
	sqlite3 "$g" "PRAGMA application_id = 1196444738; PRAGMA user_version = 1;
		CREATE TABLE runs(id INTEGER PRIMARY KEY, who TEXT);"
	before=$(sha256sum "$g")
	run "$GPULAB" run transpose --size 32 --backend sim --db "$g"
	assert_failure 3
	assert_output --partial "not gpulab's (it has no table 'launches')"
	[ "$(sha256sum "$g")" = "$before" ]
}

# doctor_like_run DB: doctor fails its database line with the message `run` gives, both exit 3, and
# neither changes the file.
doctor_like_run() {
	local db=$1 before=""
	[ -f "$db" ] && before=$(sha256sum "$db")
	run --separate-stderr "$GPULAB" run transpose --size 32 --backend sim --db "$db"
	assert_failure 3
	local msg=${stderr##*gpulab: }
	run --separate-stderr "$GPULAB" doctor --db "$db"
	assert_failure 3
	assert_line "fail  database     $msg"
	[ -z "$before" ] || [ "$(sha256sum "$db")" = "$before" ]
}

@test "doctor fails a text file, a directory, a damaged, foreign or newer database as run does" {
	echo "my notes" >"$BATS_TEST_TMPDIR/text.db"
	doctor_like_run "$BATS_TEST_TMPDIR/text.db"
	[[ "$output" == *"is not a SQLite database"* ]]
	mkdir "$BATS_TEST_TMPDIR/dir.db"
	doctor_like_run "$BATS_TEST_TMPDIR/dir.db"
	[[ "$output" == *"is a directory"* ]]
	sqlite3 "$BATS_TEST_TMPDIR/foreign.db" "CREATE TABLE customers(id INTEGER PRIMARY KEY);"
	doctor_like_run "$BATS_TEST_TMPDIR/foreign.db"
	[[ "$output" == *"not gpulab's"* ]]
	"$GPULAB" run transpose --size 32 --backend sim --db "$BATS_TEST_TMPDIR/newer.db" >/dev/null 2>&1
	sqlite3 "$BATS_TEST_TMPDIR/newer.db" "PRAGMA user_version = 99"
	doctor_like_run "$BATS_TEST_TMPDIR/newer.db"
	[[ "$output" == *"has schema version 99, newer than this gpulab"* ]]
	"$GPULAB" run transpose --size 32 --backend sim --db "$BATS_TEST_TMPDIR/damaged.db" >/dev/null 2>&1
	python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(100); f.write(b"\xff" * 3000)' \
		"$BATS_TEST_TMPDIR/damaged.db"
	doctor_like_run "$BATS_TEST_TMPDIR/damaged.db"
	[[ "$output" == *"is damaged"* ]]
	# a good database passes
	run "$GPULAB" doctor --db "$BATS_TEST_TMPDIR/newer.db-not-there/x.db"
	assert_line --regexp '^ok +database +.*x\.db can be created'
	"$GPULAB" run transpose --size 32 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" doctor --db "$DB"
	assert_line --regexp "^ok +database +$DB is writable"
}

@test "a new database in a directory this user cannot write: permission denied, exit 3" {
	# a directory every user can reach (bats' own temporary directories are private to this user)
	top=$(mktemp -d /tmp/gpulab-ro.XXXXXX)
	RO_TOP=$top
	chmod 755 "$top"
	dir="$top/ro"
	mkdir "$dir"
	chmod 555 "$dir"
	as_user=()
	if [ "$(id -u)" = 0 ]; then
		# root writes anywhere: run as nobody
		command -v setpriv >/dev/null || skip "running as root without setpriv"
		as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
		"${as_user[@]}" test -x "$GPULAB" || skip "nobody cannot run $GPULAB"
	fi
	run "${as_user[@]}" env HOME="$dir" "$GPULAB" run transpose --size 32 --backend sim --db "$dir/x.db"
	assert_failure 3
	assert_output --partial "cannot create the database $dir/x.db: directory '$dir': Permission denied"
	[ ! -e "$dir/x.db" ]
	run "${as_user[@]}" env HOME="$dir" "$GPULAB" run transpose --size 32 --backend sim --db "$dir/sub/x.db"
	assert_failure 3
	assert_output --partial "cannot create directory '$dir/sub' for the database $dir/sub/x.db: Permission denied"
	run "${as_user[@]}" env HOME="$dir" "$GPULAB" doctor --db "$dir/x.db"
	assert_line "fail  database     cannot create the database $dir/x.db: directory '$dir': Permission denied; pass --db PATH or set GPULAB_DB to a writable location"
	# an existing database this user cannot write: doctor says what run says
	"$GPULAB" run transpose --size 32 --backend sim --db "$top/ro.db" >/dev/null 2>&1
	chmod 444 "$top/ro.db"
	before=$(sha256sum "$top/ro.db")
	run --separate-stderr "${as_user[@]}" env HOME="$dir" "$GPULAB" run transpose --size 32 --backend sim --db "$top/ro.db"
	assert_failure 3
	[[ "$stderr" == *"gpulab: cannot write database $top/ro.db: the file is read-only for this user"* ]]
	run "${as_user[@]}" env HOME="$dir" "$GPULAB" doctor --db "$top/ro.db"
	assert_line --partial "fail  database     cannot write database $top/ro.db: the file is read-only for this user"
	[ "$(sha256sum "$top/ro.db")" = "$before" ]
}
