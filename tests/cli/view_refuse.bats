#!/usr/bin/env bats
# gpulab view checks everything it can before it records anything: a refused view leaves the database
# byte-identical (and creates none), however far the check had to go (terminal, view/topic/variant,
# sizes, the database itself, the CTA, the accesses the view shows).

setup() {
	load test_helper
	common_setup
}

# refused STATUS MESSAGE VIEW-ARGS...: with a database holding one run (no traces), `gpulab view ARGS`
# fails with STATUS and MESSAGE, the database stays byte-identical, and without a database none is made.
refused() {
	local want=$1 msg=$2
	shift 2
	bad_input "$want" "$msg" view "$@" --db "$DB"
	local fresh="$BATS_TEST_TMPDIR/fresh/none.db"
	run "$GPULAB" view "$@" --db "$fresh"
	assert_failure "$want"
	assert_output --partial "$msg"
	[ ! -e "$fresh" ] && [ ! -e "$(dirname "$fresh")" ]
}

@test "view without a terminal is refused before anything is recorded" {
	refused 2 "the view needs a terminal; use --frames N" coalesce --topic transpose </dev/null
}

@test "view: unknown view, topic, variant and sizes, gemm view on another topic" {
	refused 2 "no view or topic 'coalese' (did you mean 'coalesce'?)" coalese --frames 1
	refused 2 "the gemm view shows the gemm topic, not transpose" gemm --topic transpose --frames 1
	refused 2 "view banks needs --topic T" banks --frames 1
	refused 2 "naiv" coalesce --topic transpose --variant naiv --frames 1
	refused 2 "--size" coalesce --topic transpose --size -4 --frames 1
}

@test "view: a variant without the accesses the view shows is refused after computing, before storing" {
	refused 2 "the trace of transpose naive has no shared-memory accesses: the banks view needs a variant that uses shared memory" \
		banks --topic transpose --variant naive --frames 1
	refused 2 "the trace of gemm naive has no shared-memory accesses" banks --topic gemm --variant naive --frames 1
}

@test "view: a CTA outside the trace is refused before storing" {
	refused 2 "CTA 99 is not in the trace (traces keep the first 2 CTAs)" gemm --block 99 --frames 1
	refused 2 "the trace of transpose naive has no global-memory accesses in that CTA" \
		coalesce --topic transpose --variant naive --block 7 --frames 1
}

@test "view: a database that is not gpulab's is refused before computing" {
	echo "notes" >"$BATS_TEST_TMPDIR/notes.db"
	before=$(sha256sum "$BATS_TEST_TMPDIR/notes.db")
	run "$GPULAB" view coalesce --topic transpose --frames 1 --db "$BATS_TEST_TMPDIR/notes.db"
	assert_failure 3
	assert_output --partial "is not a SQLite database"
	refute_output --partial "recording one"
	[ "$(sha256sum "$BATS_TEST_TMPDIR/notes.db")" = "$before" ]
}

@test "view: an accepted view stores the trace it recorded, once" {
	run "$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB"
	assert_success
	run "$GPULAB" view banks --topic transpose --variant coalesced --frames 1 --db "$DB"
	assert_success
	run "$GPULAB" query "SELECT count(*) FROM launches WHERE variant = 'coalesced'" --csv --db "$DB"
	assert_line 1
}
