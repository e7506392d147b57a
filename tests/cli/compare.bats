#!/usr/bin/env bats
# gpulab compare: variants side by side with ratios to a baseline, the run stored as by run, formats,
# and every error path.

setup() {
	load test_helper
	common_setup
}

# cmp JSON VARIANT FIELD: one field of one variant of `gpulab compare --json`
cmp() {
	jq -r --arg v "$2" ".variants[] | select(.variant == \$v) | .$3" <<<"$1"
}

@test "compare gemm: every variant, FLOPs from the FFMA/FADD/FMUL counts, ratios to the first" {
	run --separate-stderr "$GPULAB" compare gemm --size 64 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq -r '.baseline' <<<"$json")" = naive ]
	[ "$(jq -r '.topic' <<<"$json")" = gemm ]
	[ "$(jq '.variants | length' <<<"$json")" = 7 ]
	[ "$(jq '[.variants[] | select(.verified)] | length' <<<"$json")" = 7 ]
	# 2*64^3 FFMA FLOPs + 3*64^2 in the epilogue
	[ "$(cmp "$json" naive flops)" = 536576 ]
	[ "$(cmp "$json" naive ld_sectors)" = 274432 ]
	[ "$(cmp "$json" naive global_bytes)" = $((32 * (274432 + 4096))) ]
	[ "$(cmp "$json" naive ratio.ld_sectors)" = 1 ]
	[ "$(jq -n "($(cmp "$json" smem ratio.ld_sectors) - $(cmp "$json" smem ld_sectors) / 274432) | fabs < 1e-9")" = true ]
	# naive uses no shared memory: ratios to its zero are undefined
	[ "$(cmp "$json" smem ratio.shared_wavefronts)" = null ]
	ai=$(cmp "$json" coalesced flop_per_byte)
	[ "$(jq -n "($ai - 536576 / $(cmp "$json" coalesced global_bytes)) | fabs < 1e-8")" = true ]
}

@test "compare --baseline: the named variant is the reference, and runs first when --variant leaves it out" {
	run --separate-stderr "$GPULAB" compare gemm --size 64 --variant blocktile1d,blocktile2d --baseline smem \
		--backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq -r '.baseline' <<<"$json")" = smem ]
	[ "$(jq -r '[.variants[].variant] | join(",")' <<<"$json")" = smem,blocktile1d,blocktile2d ]
	[ "$(cmp "$json" smem ratio.shared_wavefronts)" = 1 ]
	[ "$(cmp "$json" blocktile1d ratio.ld_sectors)" = 0.6 ]
}

@test "compare stores the run like run does" {
	run --separate-stderr "$GPULAB" compare reduce --n 5000 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq -r '.run_id' <<<"$output")" = 1 ]
	run --separate-stderr "$GPULAB" report last --db "$DB" --json
	assert_success
	[ "$(jq '.launches | length' <<<"$output")" = 4 ]
	[ "$(jq -r '.launches[0].topic' <<<"$output")" = reduce ]
}

@test "compare reduce: atomics count as global bytes" {
	run --separate-stderr "$GPULAB" compare reduce --n 4096 --backend sim --db "$DB" --json
	assert_success
	# 128 warps, an atomicAdd and an atomicMax each, one sector per request (all lanes, one address)
	[ "$(cmp "$output" atomic atom_sectors)" = 256 ]
	[ "$(cmp "$output" atomic global_bytes)" = $((32 * (512 + 256))) ]
}

@test "compare hgemm: tensor-core FLOPs by precision in every variant; cp.async sectors among the loads" {
	run --separate-stderr "$GPULAB" compare hgemm --size 128 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	# every variant does 2 * 128^3 FLOPs: the SIMT one on the CUDA cores, the others as FP16 tensor FLOPs
	[ "$(jq '[.variants[] | select(.flops == 4194304)] | length' <<<"$json")" = 7 ]
	[ "$(cmp "$json" simt flops_by_kind.fp32)" = 4194304 ]
	[ "$(cmp "$json" mma flops_by_kind.tensor_fp16)" = 4194304 ]
	[ "$(cmp "$json" mma tensor_flops)" = 4194304 ]
	[ "$(cmp "$json" mma flop_per_byte)" != 0 ]
	# mma_pipeline loads A and B with cp.async only: its load sectors are the LDGSTS ones, as mma_swizzle's
	[ "$(cmp "$json" mma_pipeline ldgsts_sectors)" = "$(cmp "$json" mma_swizzle ld_sectors)" ]
	[ "$(cmp "$json" mma_pipeline ld_sectors)" = "$(cmp "$json" mma_swizzle ld_sectors)" ]
	run --separate-stderr "$GPULAB" compare hgemm --size 128 --variant mma,mma_pipeline --backend sim --db "$DB"
	assert_success
	assert_output --partial "mma FLOPs: FP16 tensor 4194304"
	assert_output --partial "mma_pipeline ld sectors: 4096 of them cp.async"
}

@test "compare table: values, then ratios to the baseline" {
	run --separate-stderr "$GPULAB" compare transpose --size 64 --baseline coalesced --backend sim --db "$DB"
	assert_success
	assert_output --partial "compare transpose"
	assert_output --partial "ratio to coalesced (variant / baseline; +N: the difference where the baseline is 0)"
	assert_output --regexp "coalesced +baseline +1 +1 +1"
	assert_output --regexp "padded +yes +512 +512 +256 +0"
	assert_output --partial "FLOPs: CUDA cores (FP32 2*FFMA + FADD + FMUL, FP16, FP64) and tensor cores"
	assert_output --partial "ld sectors include cp.async (LDGSTS)"
	assert_output --regexp "padded +1 +1 +0.0606 +0 +\+0 +\+0 +\+0"
}

@test "compare csv: a header and one row per variant" {
	run --separate-stderr "$GPULAB" compare gemm --size 32 --variant naive,smem --backend sim --db "$DB" --csv
	assert_success
	[ "${#lines[@]}" = 3 ]
	[[ "${lines[0]}" == run_id,topic,variant,verified,baseline,ld_sectors,st_sectors,shared_wavefronts,* ]]
	[[ "${lines[2]}" == 1,gemm,smem,true,naive,* ]]
}

@test "an unknown baseline suggests the nearest variant" {
	bad_input 2 "unknown baseline 'smme' for topic gemm (did you mean 'smem'?)" compare gemm --baseline smme --db "$DB"
}

@test "an unknown baseline far from every name lists the variants" {
	bad_input 2 "unknown baseline 'zzzz' for topic reduce (variants: atomic, shared_tree, warp_shuffle, two_stage)" \
		compare reduce --baseline zzzz --db "$DB"
}

@test "compare: unknown topic, no topic, options run does not know" {
	bad_input 2 "unknown topic 'gemmm' (did you mean 'gemm'?)" compare gemmm --db "$DB"
	bad_input 2 "compare needs a TOPIC" compare --db "$DB"
	bad_input 2 "unknown option '--basline' for compare (did you mean '--baseline'?)" compare gemm --basline naive --db "$DB"
	bad_input 2 "--size 0 is out of range" compare gemm --size 0 --db "$DB"
	run "$GPULAB" run gemm --baseline naive --db "$DB"
	assert_failure 2
	assert_output --partial "unknown option '--baseline' for run"
}

@test "compare --help documents the figures and the baseline" {
	run "$GPULAB" compare --help
	assert_success
	assert_output --partial "--baseline VARIANT"
	assert_output --partial "2*FFMA + FADD + FMUL"
	assert_output --partial "--sample-ctas N"
}
