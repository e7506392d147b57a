#!/usr/bin/env bats
# The simulator corpus (tests/corpus/sim_corpus.py): every kernel runs and matches a reference computed
# in the test, or is refused naming the feature; the pass rate is printed.

setup() {
	load test_helper
	common_setup
}

@test "corpus: every kernel runs and matches its reference, or is refused by name" {
	run python3 "$BATS_TEST_DIRNAME/../corpus/sim_corpus.py" "$GPULAB" "$BATS_TEST_DIRNAME/../fixtures/sim" \
		"$BATS_TEST_TMPDIR"
	summary=$(printf '%s\n' "$output" | grep '^corpus: ')
	echo "# $summary" >&3
	assert_success
	refute_output --partial "FAIL"
	assert_output --partial "corpus: 20/22 kernels ran and matched; refused: stop_inlined (unsupported instruction 'brkpt'), stop_via_helper (unsupported instruction 'brkpt')"
}
