#!/usr/bin/env bats
# gpulab metrics: CUPTI's metric catalog through the host API, which needs no GPU.

bats_require_minimum_version 1.5.0

setup() {
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
	GPULAB="${GPULAB:-$BATS_TEST_DIRNAME/../../build/gpulab}"
	FIXTURES="$BATS_TEST_DIRNAME/../fixtures/cupti"
	export HOME="$BATS_TEST_TMPDIR/home"
	unset GPULAB_DB XDG_DATA_HOME
	# Without CUPTI (no CUDA toolkit) there is nothing to list: exit 3 with the paths tried.
	run "$GPULAB" metrics --chip GH100 --search dram__bytes_read
	if [ "$status" -eq 3 ]; then skip "no CUPTI here: $output"; fi
}

have_gpu() { "$GPULAB" devices >/dev/null 2>&1; }

@test "GH100 lists every base metric with type, unit and description" {
	run "$GPULAB" metrics --chip GH100
	assert_success
	count=$(grep -c '__' <<<"$output")
	[ "$count" -ge 3000 ]
	assert_output --regexp 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld +counter +l1data_bank_conflict +# of shared memory data bank conflicts'
	assert_output --partial 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st'
	assert_line --regexp '^[0-9]+ of [0-9]+ metrics on GH100'
}

@test "--search filters by name or description, in any case" {
	run "$GPULAB" metrics --chip GH100 --search BANK_CONFLICTS
	assert_success
	assert_output --partial 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld'
	refute_output --partial 'dram__bytes_read '
	run "$GPULAB" metrics --chip GH100 --search 'bytes read from dram'
	assert_success
	assert_output --partial 'dram__bytes_read '
}

@test "--passes: global-load sectors and requests together need 2 passes" {
	run "$GPULAB" metrics --chip GH100 --passes l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
	assert_success
	assert_line '2 metrics on GH100: 2 replay passes'
	run "$GPULAB" metrics --chip GH100 --passes l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum --json
	assert_success
	assert_output --partial '"passes":1'
}

@test "--passes accepts the metric sets" {
	run "$GPULAB" metrics --chip GH100 --passes sim
	assert_success
	assert_line --regexp '^12 metrics on GH100: [0-9]+ replay pass'
}

@test "--passes: a set's metric the chip lacks is dropped, a typed one is an error" {
	run "$GPULAB" metrics --chip GB202 --passes all
	assert_success
	assert_output --partial '(not on GB202, dropped from the set: dram__bytes_read.sum, dram__bytes_write.sum)'
	run "$GPULAB" metrics --chip GB202 --passes memory,dram__bytes_read.sum
	assert_failure 2
	assert_output --partial "unknown metric 'dram__bytes_read.sum' for GB202"
}

@test "--save-config writes the golden config image for the sim set" {
	run "$GPULAB" metrics --chip GH100 --passes sim --save-config "$BATS_TEST_TMPDIR/config.bin"
	assert_success
	cmp "$BATS_TEST_TMPDIR/config.bin" "$FIXTURES/config_GH100_sim.bin"
}

@test "chip names are exact upper case: gh100 exits 2 and lists the valid chips" {
	run "$GPULAB" metrics --chip gh100
	assert_failure 2
	assert_output --partial "unknown chip 'gh100'"
	assert_output --partial "did you mean 'GH100'"
	assert_output --partial 'valid chips: GV100'
	assert_output --partial 'AD102'
}

@test "an unknown chip exits 2 and lists the valid chips" {
	run "$GPULAB" metrics --chip H100X --passes sim
	assert_failure 2
	assert_output --partial "unknown chip 'H100X'"
	assert_output --partial 'GH100'
}

@test "a metric name without rollup or with a typo exits 2 with the fix" {
	run "$GPULAB" metrics --chip GH100 --passes dram__bytes_read
	assert_failure 2
	assert_output --partial 'dram__bytes_read.sum'
	run "$GPULAB" metrics --chip GH100 --passes dram__bytes_reed.sum
	assert_failure 2
	assert_output --partial "did you mean 'dram__bytes_read'"
	run "$GPULAB" metrics --chip GH100 --passes memry
	assert_failure 2
	assert_output --partial "did you mean 'memory'"
}

@test "--json is valid, complete and stable" {
	"$GPULAB" metrics --chip GH100 --json >"$BATS_TEST_TMPDIR/a.json"
	"$GPULAB" metrics --chip GH100 --json >"$BATS_TEST_TMPDIR/b.json"
	cmp "$BATS_TEST_TMPDIR/a.json" "$BATS_TEST_TMPDIR/b.json"
	python3 - "$BATS_TEST_TMPDIR/a.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["chip"] == "GH100" and d["search"] is None
assert d["count"] == len(d["metrics"]) >= 3000
m = [x for x in d["metrics"] if x["name"] == "dram__bytes_read"][0]
assert m["type"] == "counter" and m["unit"] == "byte" and m["hw_unit"] == "dram" and m["description"]
PY
}

@test "without a GPU and without --chip: GH100, the chip of the default GPU model, and a note saying so" {
	if have_gpu; then skip "a GPU is present: its own chip is the default"; fi
	run --separate-stderr "$GPULAB" metrics --search dram__bytes_read
	assert_success
	assert_line --regexp '^[0-9]+ of [0-9]+ metrics on GH100 matching'
	[ "$stderr" = "gpulab: no GPU here: chip GH100 of the H100 SXM5 80GB, the GPU model gpulab's estimates default to (--chip NAME for another; --chip list names them)" ]
	run --separate-stderr "$GPULAB" metrics --passes sim
	assert_success
	assert_line --regexp '^12 metrics on GH100: [0-9]+ replay pass'
	# the chips CUPTI knows
	run "$GPULAB" metrics --chip list
	assert_success
	assert_output --partial 'supports these chips (--chip NAME)'
	assert_output --partial 'GH100'
	run "$GPULAB" metrics --chip list --json
	[ "$(jq -r '.chips | index("GH100") >= 0' <<<"$output")" = true ]
}

@test "with a GPU the default chip is its own" {
	if ! have_gpu; then skip "no GPU here"; fi
	run "$GPULAB" metrics --search dram__bytes_read
	assert_success
	assert_line --regexp '^[0-9]+ of [0-9]+ metrics on [A-Z0-9]+ matching'
}
