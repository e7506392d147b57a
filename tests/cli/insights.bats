#!/usr/bin/env bats
# Guidance, occupancy, the estimate, report --details, runs, compare --runs and plots, with their error
# paths.

setup() {
	load test_helper
	common_setup
}

# rule JSON VARIANT RULE: the rule's message on that variant, empty when it did not fire
rule() {
	jq -r --arg v "$2" --arg r "$3" '.launches[] | select(.variant == $v) | .guidance[] | select(.rule == $r) | .message' <<<"$1"
}

@test "transpose naive: a rule names 32 sectors per store request against an ideal of 4; padded has none" {
	run "$GPULAB" run transpose --variant naive,padded --backend sim --db "$DB"
	assert_success
	assert_output --partial "OPT naive: global stores: 32.0 sectors per request against an ideal of 4.0"
	refute_output --partial "OPT padded: global stores"
	run --separate-stderr "$GPULAB" report --db "$DB" --json
	assert_success
	[[ "$(rule "$output" naive uncoalesced_global_stores)" == *"32.0 sectors per request against an ideal of 4.0"* ]]
	[ -z "$(rule "$output" padded uncoalesced_global_stores)" ]
	[ "$(jq -r '.launches[0].guidance[0] | keys | join(",")' <<<"$output")" = \
		"estimated_speedup,message,metric,rule,severity,value" ]
	[ "$(jq -r '.launches[0].guidance[] | select(.rule == "uncoalesced_global_stores") | .value' <<<"$output")" = 32 ]
}

@test "reduce atomic: an atomics rule; shared_tree has none" {
	run --separate-stderr "$GPULAB" run reduce --variant atomic,shared_tree --size 65536 --backend sim --db "$DB" --json
	assert_success
	[[ "$(rule "$output" atomic atomics_contention)" == *"global atomic requests"* ]]
	[ -z "$(rule "$output" shared_tree atomics_contention)" ]
	run "$GPULAB" report --db "$DB"
	assert_output --partial "WRN atomic: "
}

@test "gemm naive: an uncoalesced-load rule; the guidance is stored in launch_guidance" {
	run "$GPULAB" run gemm --variant naive --size 64 --backend sim --db "$DB"
	assert_success
	assert_output --partial "OPT naive: global loads:"
	run "$GPULAB" query "SELECT rule FROM launch_guidance WHERE rule = 'uncoalesced_global_loads'" --db "$DB" --csv
	assert_output --partial uncoalesced_global_loads
}

@test "each launch's JSON carries shared_bytes, occupancy and a labelled estimate" {
	run --separate-stderr "$GPULAB" run transpose --variant padded --size 256 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq -r '.launches[0].shared_bytes' <<<"$output")" = 4224 ]
	[ "$(jq -r '.launches[0].occupancy.gpu' <<<"$output")" = H100 ]
	[ "$(jq -r '.launches[0].occupancy.blocks_per_sm' <<<"$output")" = 8 ]
	[ "$(jq -r '.launches[0].occupancy.limiter' <<<"$output")" = "registers + warps" ]
	[ "$(jq -r '.launches[0].estimate.label' <<<"$output")" = "estimate (model)" ]
	[ "$(jq -r '.launches[0].estimate.time_us > 0' <<<"$output")" = true ]
	run --separate-stderr "$GPULAB" report --db "$DB" --json --gpu L4
	[ "$(jq -r '.launches[0].occupancy.gpu' <<<"$output")" = L4 ]
	[ "$(jq -r '.launches[0].occupancy.theoretical_warps_per_sm' <<<"$output")" = 48 ]
}

@test "estimates on H100 rank transpose naive slower than padded and gemm naive slower than warptile" {
	run --separate-stderr "$GPULAB" run transpose --variant naive,padded --backend sim --db "$DB" --json
	assert_success
	naive=$(jq '.launches[] | select(.variant == "naive") | .estimate.time_us' <<<"$output")
	padded=$(jq '.launches[] | select(.variant == "padded") | .estimate.time_us' <<<"$output")
	[ "$(jq -n "$naive > $padded")" = true ]
	run --separate-stderr "$GPULAB" run gemm --variant naive,warptile --backend sim --db "$DB" --json
	assert_success
	naive=$(jq '.launches[] | select(.variant == "naive") | .estimate.time_us' <<<"$output")
	warp=$(jq '.launches[] | select(.variant == "warptile") | .estimate.time_us' <<<"$output")
	[ "$(jq -n "$naive > $warp")" = true ]
}

@test "occupancy: table, limiter, graphs and JSON; errors name the wrong thing" {
	run "$GPULAB" occupancy gemm --variant warptile --gpu H100
	assert_success
	assert_output --partial "3 blocks, 12 of 64 warps per SM = 18.8%, limited by registers"
	assert_output --partial "occupancy vs threads per block"
	assert_output --partial "occupancy vs registers per thread"
	run "$GPULAB" occupancy transpose --variant naive --gpu RTX4090 --json
	assert_success
	[ "$(jq -r .theoretical_warps_per_sm <<<"$output")" = 48 ]
	run "$GPULAB" occupancy transpose --variant naive --gpu V100
	assert_failure 2
	assert_output --partial "unknown GPU model 'V100'"
	run "$GPULAB" occupancy transpose
	assert_failure 2
	assert_output --partial "needs --variant"
	run "$GPULAB" occupancy nosuch --variant naive
	assert_failure 2
	run "$GPULAB" occupancy transpose --variant nosuch
	assert_failure 2
}

@test "report --details shows the sections; --gpu changes the model" {
	"$GPULAB" run transpose --variant naive --size 128 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" report --details --db "$DB" --gpu A100
	assert_success
	for s in "  Launch" "  Memory" "  Compute" "  Occupancy (A100" "  Roofline and estimate (model) on A100" "  Guidance"; do
		assert_output --partial "$s"
	done
	assert_output --regexp "ideal for the access width +4"
	run "$GPULAB" report --details --db "$DB" --gpu nosuch
	assert_failure 2
}

@test "runs: newest first, --topic, --limit, JSON and CSV" {
	"$GPULAB" run transpose --variant naive --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	"$GPULAB" run reduce --variant atomic --size 1024 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" runs --db "$DB"
	assert_success
	assert_line --index 1 --regexp "^ +2 .* reduce +atomic +\{\"n\":1024\} +sim +ok"
	assert_line --index 2 --regexp "^ +1 .* transpose +naive"
	run "$GPULAB" runs --db "$DB" --topic transpose --json
	[ "$(jq -r 'length' <<<"$output")" = 1 ]
	[ "$(jq -r '.[0].params.rows' <<<"$output")" = 64 ]
	run "$GPULAB" runs --db "$DB" --limit 1 --csv
	assert_line --index 0 "run_id,started_at,topic,variants,params,backend,device,status,launches,failed"
	[ "${#lines[@]}" = 2 ]
	run "$GPULAB" runs --db "$DB" --topic nosuch
	assert_failure 2
	run "$GPULAB" runs --db "$DB" --limit -1
	assert_failure 2
}

@test "runs: a value longer than its column ends in '...'; columns fit their widest value" {
	"$GPULAB" run conv2d --variant direct,implicit_gemm --size 4 --c 2 --k 2 --backend sim --db "$DB" >/dev/null 2>&1
	"$GPULAB" run smem_patterns --variant stride1 --blocks 1 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" runs --db "$DB"
	assert_success
	assert_line --index 0 --regexp '^  run  started \(UTC\)         topic          variants              parameters '
	# conv2d's 100-character parameters: cut to the 40-character column, with "..." saying so
	assert_line --index 2 --regexp ' conv2d         direct,implicit_gemm  \{"n":1,"c":2,"h":4,"w":4,"k":2,"r":3,\.\.\.  sim +ok$'
	assert_line --index 1 --regexp ' smem_patterns  stride1 '
	# JSON keeps the whole value
	run "$GPULAB" runs --db "$DB" --json
	[ "$(jq -r '.[1].params.layout' <<<"$output")" = nchw ]
}

@test "compare --runs compares stored runs without running; a 0 baseline shows the difference" {
	"$GPULAB" run transpose --variant naive --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	"$GPULAB" run transpose --variant padded --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	before=$(db_hash)
	run "$GPULAB" compare --runs 1,2 --db "$DB"
	assert_success
	assert_output --regexp "r1:naive +yes"
	assert_output --regexp "r2:padded +1 +0\.125 +\+256 "
	[ "$(db_hash)" = "$before" ]
	run --separate-stderr "$GPULAB" compare --runs 1,2 --db "$DB" --json
	[ "$(jq -r '.variants[1].difference.shared_wavefronts' <<<"$output")" = 256 ]
	[ "$(jq -r '.variants[1].ratio.st_sectors' <<<"$output")" = 0.125 ]
	run "$GPULAB" compare --runs 1,2 --db "$DB" --csv
	assert_line --index 2 --partial "r2:padded"
	run "$GPULAB" compare --runs 1 --db "$DB"
	assert_failure 2
	assert_output --partial "two run ids or more"
	run "$GPULAB" compare --runs 1,9 --db "$DB"
	assert_failure 2
	run "$GPULAB" compare transpose --runs 1,2 --db "$DB"
	assert_failure 2
	run "$GPULAB" compare --runs 1,2 --baseline nosuch --db "$DB"
	assert_failure 2
}

@test "compare --runs A,B --strict: a simulator run and a GPU run judged launch by launch as validate --strict" {
	command -v sqlite3 >/dev/null || skip "no sqlite3 command-line tool"
	for i in 1 2 3; do
		"$GPULAB" run transpose --variant naive --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	done
	# run 2 stands for the same program profiled on a GPU: every count equal, so nothing differs
	sqlite3 "$DB" "UPDATE runs SET backend = 'cuda' WHERE id IN (2, 3)"
	run --separate-stderr "$GPULAB" compare --runs 1,2 --strict --db "$DB"
	assert_success
	# run 3's GPU read one sector more than the simulator counted: exit 1 naming the launch and the metric
	sqlite3 "$DB" "UPDATE metrics SET value = value + 1 WHERE name = 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'
		AND launch_id IN (SELECT id FROM launches WHERE run_id = 3)"
	run --separate-stderr "$GPULAB" compare --runs 1,3 --strict --db "$DB"
	assert_failure 1
	[[ "$stderr" == *"1 exact count differs"* ]]
	[[ "$stderr" == *"launch 1 (transpose_naive): l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum is 512 on the simulator, 513 on the GPU"* ]]
	[[ "$output" == *"r3:naive"* ]] # the comparison is still shown
	# the rule needs one run of each backend, two runs, and --runs
	run --separate-stderr "$GPULAB" compare --runs 2,3 --strict --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"runs 2 and 3 are cuda and cuda"* ]]
	run --separate-stderr "$GPULAB" compare --runs 1,2,3 --strict --db "$DB"
	assert_failure 2
	run --separate-stderr "$GPULAB" compare transpose --strict --backend sim --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"--strict goes with --runs"* ]]
}

@test "compare --runs names every run, sizes the variant column from the names, and refuses two topics" {
	"$GPULAB" run conv2d --variant direct,implicit_gemm --size 4 --c 2 --k 2 --backend sim --db "$DB" >/dev/null 2>&1
	"$GPULAB" run conv2d --variant implicit_gemm --size 4 --c 2 --k 2 --backend sim --db "$DB" >/dev/null 2>&1
	"$GPULAB" run transpose --variant naive --size 32 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" compare --runs 1,2 --db "$DB"
	assert_success
	assert_line --index 0 --regexp '^compare conv2d  \{.*\}  runs 1, 2  backend sim'
	# "r1:implicit_gemm" is 16 characters: the column is 16 wide and every row lines up under the heading
	assert_line --index 1 --regexp '^variant {10}verified +ld sectors'
	assert_line --index 2 --regexp '^r1:direct {8}yes '
	assert_line --index 3 --regexp '^r1:implicit_gemm yes '
	before=$(db_hash)
	run "$GPULAB" compare --runs 1,3 --db "$DB"
	assert_failure 2
	assert_output --partial "compare --runs puts runs of one topic side by side, but run 1 is conv2d and run 3 is transpose"
	[ "$(db_hash)" = "$before" ]
}

@test "plot roofline and compare: terminal, and SVG that validates and renders" {
	command -v xmllint >/dev/null && command -v rsvg-convert >/dev/null || skip "xmllint or rsvg-convert missing (make deps)"
	"$GPULAB" run gemm --variant naive,smem --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" plot roofline --db "$DB"
	assert_success
	assert_output --partial "hierarchical roofline on H100 SXM5 80GB"
	assert_output --partial "ceilings FP32 '-' 66.9 TFLOP/s, FP16/BF16 tensor '=' 989.4; TF32 tensor 494.7, INT8 tensor 1978.9 TOPS"
	# three intensities per launch (L1 < L2 < DRAM), one GFLOP/s; the DRAM one is the footprint's, the same
	# for both, while tiling moves smem right on L1 and L2
	assert_output --regexp "a 1 A +gemm naive +0.06[0-9]* +2.5[0-9]* +8.19 +[0-9.]+ \(estimate \(model\)\)"
	assert_output --regexp "b 2 B +gemm smem +0.3[0-9]* +5.4[0-9]* +8.19 +[0-9.]+ \(estimate \(model\)\)"
	for mark in a 1 A b 2 B; do # every point is drawn in the grid
		[ "$(grep -E '^ *[0-9.e+]* *\|' <<<"$output" | grep -c "$mark")" -ge 1 ]
	done
	run "$GPULAB" plot roofline --db "$DB" --gpu A100 --svg "$BATS_TEST_TMPDIR/r.svg"
	assert_success
	xmllint --noout "$BATS_TEST_TMPDIR/r.svg"
	rsvg-convert "$BATS_TEST_TMPDIR/r.svg" -o "$BATS_TEST_TMPDIR/r.png"
	[ -s "$BATS_TEST_TMPDIR/r.png" ]
	grep -q ">2 gemm smem (estimate)<" "$BATS_TEST_TMPDIR/r.svg"
	for ceiling in "FP32 19.5 TFLOP/s" "FP16/BF16 tensor 312.0 TFLOP/s" "TF32 tensor 156.0 TFLOP/s" \
		"INT8 tensor 624.0 TOPS" "DRAM 2039 GB/s" "L2 7219 GB/s"; do
		grep -q ">$ceiling<" "$BATS_TEST_TMPDIR/r.svg"
	done
	# two launches, three points each: L1 circles (and the legend's), L2 squares and DRAM triangles
	[ "$(grep -c "<circle" "$BATS_TEST_TMPDIR/r.svg")" = 3 ]
	[ "$(grep -c "<polygon" "$BATS_TEST_TMPDIR/r.svg")" = 6 ]
	run "$GPULAB" plot compare gemm --db "$DB"
	assert_success
	assert_output --partial "global load sectors"
	run "$GPULAB" plot compare gemm --db "$DB" --svg "$BATS_TEST_TMPDIR/c.svg"
	assert_success
	xmllint --noout "$BATS_TEST_TMPDIR/c.svg"
	rsvg-convert "$BATS_TEST_TMPDIR/c.svg" -o "$BATS_TEST_TMPDIR/c.png"
	[ -s "$BATS_TEST_TMPDIR/c.png" ]
}

@test "the L1 model: reread sectors hit, so the L2 sees fewer load sectors than the L1 and no fewer than the footprint" {
	run --separate-stderr "$GPULAB" run gemm --variant naive,smem --size 64 --backend sim --db "$DB" --json
	assert_success
	for v in naive smem; do
		m() { jq -r --arg v "$v" --arg k "$1" '.launches[] | select(.variant == $v) | .metrics[$k]' <<<"$output"; }
		miss=$(m gpulab__l1tex_t_sectors_lookup_miss_op_ld.sum)
		[ "$miss" -ge "$(m gpulab__dram_sectors_unique_op_ld.sum)" ]
		[ "$miss" -le "$(m l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" ]
		[ "$(m gpulab__l1tex_t_lines_pipe_lsu_mem_global_op_ld.sum)" -ge "$(m l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum)" ]
	done
	# naive's lanes walk 32 rows of A: each sector serves 8 iterations of k from L1
	naive_miss=$(jq '.launches[] | select(.variant == "naive") | .metrics["gpulab__l1tex_t_sectors_lookup_miss_op_ld.sum"]' <<<"$output")
	naive_sect=$(jq '.launches[] | select(.variant == "naive") | .metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")
	[ "$((naive_miss * 4))" -lt "$naive_sect" ]
}

@test "plot errors: unknown plot, missing topic, no run of the topic, unwritable SVG" {
	"$GPULAB" run transpose --variant naive --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" plot histogram --db "$DB"
	assert_failure 2
	assert_output --partial "unknown plot 'histogram'"
	run "$GPULAB" plot compare --db "$DB"
	assert_failure 2
	run "$GPULAB" plot compare gemm --db "$DB"
	assert_failure 2
	assert_output --partial "no stored run of topic gemm"
	run "$GPULAB" plot roofline --db "$DB" --svg /nonexistent/dir/x.svg
	assert_failure 2
	assert_output --partial "cannot write --svg"
	run "$GPULAB" plot roofline --db "$DB" --run 7
	assert_failure 2
}

@test "validate prints the estimate (model) beside the measured time (gpulab's driver library)" {
	DRIVER="${GPULAB_DRIVER_DIR:-$(dirname "$GPULAB")/driver}"
	[ -e "$DRIVER/libcuda.so.1" ] || skip "no driver library built"
	export LD_LIBRARY_PATH="$DRIVER${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	run "$GPULAB" validate reduce --db "$DB"
	assert_success
	assert_output --regexp "time: measured [0-9.]+ us; estimate \(model\) on H100 from the simulator's counts [0-9.]+ us"
	run --separate-stderr "$GPULAB" validate reduce --json --db "$DB"
	[ "$(jq -r '.variants[0].estimate_gpu' <<<"$output")" = H100 ]
	[ "$(jq -r '.variants[0].estimate_us > 0' <<<"$output")" = true ]
}

@test "report --details --csv: one row per launch with occupancy, estimate and the rules; --json carries them" {
	# at 1024 the naive transpose is L1-bound by its stores' 32 lines a request: coalescing them would help
	"$GPULAB" run transpose --variant naive,padded --size 1024 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" report --details --csv --db "$DB"
	assert_success
	[[ "${lines[0]}" == run_id,topic,variant,grid,block,registers,shared_bytes,*,flops,tensor_flops,gpu,*,intensity,intensity_l2,intensity_l1,estimate_us,bound,* ]]
	[ "${#lines[@]}" = 3 ]
	[[ "${lines[1]}" == 1,transpose,naive,32:32:1,32:8:1,18,0,4,4,32,4,*,H100,*,L1/shared,,uncoalesced_global_stores\ roofline ]]
	# at 128 its 16 blocks leave every SM waiting on its loads: the same stores cost no time, so no advice
	"$GPULAB" run transpose --variant naive --size 128 --backend sim --db "$DB" >/dev/null 2>&1
	run "$GPULAB" report --details --csv --db "$DB"
	[[ "${lines[1]}" == 2,transpose,naive,4:4:1,*,latency,,roofline ]]
	run --separate-stderr "$GPULAB" report 1 --details --json --db "$DB"
	[ "$(jq -r '.launches[1].estimate.label' <<<"$output")" = "estimate (model)" ]
	[ "$(jq -r '.launches[0].estimate.bound' <<<"$output")" = "L1/shared" ]
	[ "$(jq '.launches[0].estimate.flops_by_kind.fp32' <<<"$output")" = 0 ]
}
