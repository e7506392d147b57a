#!/usr/bin/env bats
# Memory counts that follow the SASS: ptxas merges scalar shared loads into LDS.128 and the simulator
# counts the merged instruction (docs/sim.md), keeping the PTX-level figures under gpulab__ptx_* names;
# `gpulab sim` maps its input the same way when ptxas and nvdisasm are there, and says which mode it used.

setup() {
	load test_helper
	common_setup
	FIXTURE="$BATS_TEST_DIRNAME/../fixtures/sass/sass_fixture.cu"
}

SLD=smsp__inst_executed_op_shared_ld.sum
SLDWF=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
PSLD=gpulab__ptx_inst_executed_op_shared_ld.sum
PSLDWF=gpulab__ptx_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum

have_nvcc() {
	command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]
}

# The build embeds the SASS only when nvdisasm was there (make deps installs it) and GPULAB_SASS is on.
sass_embedded() {
	local note
	note=$("$GPULAB" run transpose --variant copy --size 32 --backend sim --db "$DB" --json | jq -r '.launches[0].note')
	[[ "$note" == "counts: SASS-mapped (ptxas "* ]]
}

# merge4 with 256 threads: 64 threads (2 warps) sum s[4t..4t+3].  PTX: 4 ld.shared.f32 per warp, each a
# 4-way bank conflict (4 wavefronts).  SASS: one LDS.128 per warp, 512 bytes = 4 wavefronts.
sim_merge4() {
	"$GPULAB" sim "$FIXTURE" --kernel merge4 --grid 1 --block 256 --arg buf:a:f32:256:seq --arg buf:o:f32:256 --json
}

@test "gemm 256: smem and blocktile1d count the LDS/LDS.128 ptxas emits, the PTX figures stay under gpulab__ptx_*" {
	sass_embedded || skip "no SASS in this build (nvdisasm could not be installed, or -DGPULAB_SASS=OFF)"
	run --separate-stderr "$GPULAB" run gemm --variant smem,blocktile1d --size 256 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	# smem, per warp and K step of 32: 64 ld.shared.f32 -> 32 LDS + 8 LDS.128; 2048 warps x 8 steps
	[ "$(metric "$json" smem $SLD)" = 655360 ]
	[ "$(metric "$json" smem $PSLD)" = 1048576 ]
	# LDS: 1 wavefront; LDS.128 of one address (a broadcast): one per half-warp, 2
	[ "$(metric "$json" smem $SLDWF)" = 786432 ]
	[ "$(metric "$json" smem $PSLDWF)" = 1048576 ]
	# blocktile1d, per warp and 4 PTX iterations: 72 ld.shared.f32 -> 8 LDS + 16 LDS.128
	[ "$(metric "$json" blocktile1d $SLD)" = 196608 ]
	[ "$(metric "$json" blocktile1d $PSLD)" = 589824 ]
	[[ "$(jq -r '.launches[0].note' <<<"$json")" == "counts: SASS-mapped (ptxas "*" sm_80)" ]]
	run "$GPULAB" report --db "$DB"
	assert_success
	assert_output --partial "counts: SASS-mapped (ptxas"
}

@test "gpulab sim maps a .cu through ptxas and nvdisasm: one LDS.128 per warp instead of four loads" {
	have_nvcc || skip "no nvcc here"
	sass_embedded || skip "no nvdisasm in this build (nvdisasm could not be installed, or -DGPULAB_SASS=OFF)"
	run --separate-stderr sim_merge4
	assert_success
	[[ "$(jq -r .counts <<<"$output")" == "SASS-mapped (ptxas "*" sm_80)" ]]
	[ "$(jq -r ".metrics[\"$SLD\"]" <<<"$output")" = 2 ]
	[ "$(jq -r ".metrics[\"$SLDWF\"]" <<<"$output")" = 8 ]
	[ "$(jq -r ".metrics[\"$PSLD\"]" <<<"$output")" = 8 ]
	[ "$(jq -r ".metrics[\"$PSLDWF\"]" <<<"$output")" = 32 ]
	run "$GPULAB" sim "$FIXTURE" --kernel merge4 --grid 1 --block 256 --arg buf:a:f32:256:seq --arg buf:o:f32:256
	assert_success
	assert_line --regexp "^counts: SASS-mapped \(ptxas [0-9.]+ sm_80\)$"
}

@test "a build without SASS counts PTX-level and says why in the run's note" {
	sass_embedded && skip "this build embeds the SASS (configure with -DGPULAB_SASS=OFF to test the fallback)"
	run --separate-stderr "$GPULAB" run gemm --variant smem --size 128 --backend sim --db "$DB" --json
	assert_success
	[[ "$(jq -r '.launches[0].note' <<<"$output")" == "counts: PTX-level ("* ]]
	[ "$(metric "$output" smem $SLD)" = "$(metric "$output" smem $PSLD)" ]
}

@test "without nvdisasm or ptxas, gpulab sim counts PTX-level and says why" {
	have_nvcc || skip "no nvcc here"
	GPULAB_NVDISASM=/nonexistent/nvdisasm run --separate-stderr sim_merge4
	assert_success
	[ "$(jq -r .counts <<<"$output")" = "PTX-level (nvdisasm not found; make deps installs it)" ]
	[ "$(jq -r ".metrics[\"$SLD\"]" <<<"$output")" = 8 ]
	[ "$(jq -r ".metrics[\"$PSLD\"]" <<<"$output")" = 8 ]
	GPULAB_PTXAS=/nonexistent/ptxas run "$GPULAB" sim "$FIXTURE" --kernel merge4 --grid 1 --block 256 \
		--arg buf:a:f32:256:seq --arg buf:o:f32:256
	assert_success
	assert_line "counts: PTX-level (ptxas not found)"
}

# A ptxas that logs each run to $OUT/ptxas.log and then runs the real one.
logging_ptxas() {
	local real
	real=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
	[ -x "$real" ] || return 1
	printf '#!/bin/sh\necho "$*" >>"%s/ptxas.log"\nexec "%s" "$@"\n' "$BATS_TEST_TMPDIR" "$real" >"$BATS_TEST_TMPDIR/ptxas"
	chmod +x "$BATS_TEST_TMPDIR/ptxas"
	export GPULAB_PTXAS="$BATS_TEST_TMPDIR/ptxas"
	mkdir -p "$HOME" # the cache goes under it
}

SAXPY="$BATS_TEST_DIRNAME/../fixtures/sim/saxpy.ptx"
sim_saxpy() {
	"$GPULAB" sim "$SAXPY" --kernel saxpy --grid 4 --block 256 --arg i32:1000 --arg f32:2 \
		--arg buf:x:f32:1000:rand --arg buf:y:f32:1000:const:1 "$@"
}

# compiles: how many times the logging ptxas compiled (its --version runs are not compiles)
compiles() {
	grep -vc -- '--version' "$BATS_TEST_TMPDIR/ptxas.log" || true
}

@test "the SASS of a PTX is cached: a second gpulab sim runs ptxas only for its version, and counts the same" {
	sass_embedded || skip "no nvdisasm in this build (nvdisasm could not be installed, or -DGPULAB_SASS=OFF)"
	logging_ptxas || skip "no ptxas here"
	run --separate-stderr sim_saxpy --json --verbose
	assert_success
	first="$output"
	[[ "$stderr" == *"SASS cache: stored "*"/gpulab/sass/"*".sass"* ]]
	[ "$(compiles)" = 1 ]
	run --separate-stderr sim_saxpy --json --verbose
	assert_success
	[[ "$stderr" == *"SASS cache: hit "* ]]
	[ "$(compiles)" = 1 ]
	[ "$(jq -c '.metrics, .counts' <<<"$output")" = "$(jq -c '.metrics, .counts' <<<"$first")" ]
	[[ "$(jq -r .counts <<<"$output")" == "SASS-mapped (ptxas "*" sm_80)" ]]
	# --no-cache runs the tools anyway
	run --separate-stderr sim_saxpy --no-cache
	assert_success
	[ "$(compiles)" = 2 ]
}

@test "a damaged, linked or foreign SASS cache entry is not used: the tools run again" {
	sass_embedded || skip "no nvdisasm in this build (nvdisasm could not be installed, or -DGPULAB_SASS=OFF)"
	logging_ptxas || skip "no ptxas here"
	run sim_saxpy --json
	assert_success
	good="$output"
	entry=$(ls "$HOME"/.cache/gpulab/sass/*.sass)
	# one byte of the text changed: its checksum no longer matches
	python3 -c 'import sys; p=sys.argv[1]; d=bytearray(open(p,"rb").read()); d[-2] ^= 1; open(p,"wb").write(d)' "$entry"
	run --separate-stderr sim_saxpy --json --verbose
	assert_success
	[[ "$stderr" == *"SASS cache: unusable entry, ignored: $entry"* ]]
	[ "$(compiles)" = 2 ]
	[ "$(jq -c .metrics <<<"$output")" = "$(jq -c .metrics <<<"$good")" ]
	# the entry was written again, whole: the next run hits
	run --separate-stderr sim_saxpy --verbose
	[[ "$stderr" == *"SASS cache: hit "* ]]
	[ "$(compiles)" = 2 ]
	# an entry that is a link to a (good) copy: not followed
	cp "$entry" "$BATS_TEST_TMPDIR/copy.sass"
	ln -sf "$BATS_TEST_TMPDIR/copy.sass" "$entry"
	run sim_saxpy
	assert_success
	[ "$(compiles)" = 3 ]
	# a cache directory others may write to is not used at all
	rm -f "$entry"
	chmod 0777 "$HOME/.cache/gpulab/sass"
	run sim_saxpy
	run sim_saxpy
	assert_success
	[ "$(compiles)" = 5 ]
	[ -z "$(ls "$HOME"/.cache/gpulab/sass/)" ]
}
