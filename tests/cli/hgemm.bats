#!/usr/bin/env bats
# gpulab run hgemm: every variant verified against the fp32 reference on the same fp16 inputs; one HMMA
# per m16n8k16 (M*N*K/2048) on every tensor-core variant and FFMAs only on simt; ldmatrix's bank
# conflicts on row-major tiles, none once swizzled; the pipeline's global loads all cp.async (LDGSTS).

setup() {
	load test_helper
	common_setup
}

FFMA=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
HMMA=smsp__inst_executed_pipe_tensor_op_hmma.sum
TOPS=gpulab__ptx_ops_path_tensor_src_fp16_dst_fp32.sum
LDSM=smsp__inst_executed_op_ldsm.sum
SLDWF=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
SLDCONF=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
GLD=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
LDGSTS_REQ=smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum
LDGSTS_SECT=smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum
TC="wmma wmma_smem mma mma_ldmatrix mma_swizzle mma_pipeline"

@test "hgemm 256: all seven verified; HMMA = M*N*K/2048 on tensor cores, 0 on simt; FFMAs only on simt" {
	run --separate-stderr "$GPULAB" run hgemm --variant all --size 256 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$json")" = 7 ]
	for v in $TC; do
		[ "$(metric "$json" $v $HMMA)" = $((256 * 256 * 256 / 2048)) ] || { echo "$v: $(metric "$json" $v $HMMA)"; false; }
		[ "$(metric "$json" $v $TOPS)" = $((2 * 256 * 256 * 256)) ]
		[ "$(metric "$json" $v $FFMA)" = 0 ]
	done
	# simt: the tensor metrics are not reported (never used) and every multiply-add is one FFMA
	[ "$(metric "$json" simt $HMMA)" = null ]
	[ "$(metric "$json" simt $FFMA)" = 16777216 ]
}

@test "hgemm 256: ldmatrix on row-major tiles conflicts, the swizzle removes every conflict" {
	run --separate-stderr "$GPULAB" run hgemm --variant mma_ldmatrix,mma_swizzle,mma_pipeline --size 256 --backend sim \
		--db "$DB" --json
	assert_success
	json="$output"
	# 16 CTAs x 8 K steps x 2 k16 x 4 warps x 4 ldmatrix.x4
	for v in mma_ldmatrix mma_swizzle mma_pipeline; do
		[ "$(metric "$json" $v $LDSM)" = 4096 ]
	done
	# row-major: A rows 64 bytes apart hit 4 rows per bank group (4 wavefronts a matrix), B rows 128
	# bytes apart 8: 2048 x 16 + 2048 x 32 wavefronts, 4 per instruction conflict-free
	[ "$(metric "$json" mma_ldmatrix $SLDWF)" = 98304 ]
	[ "$(metric "$json" mma_ldmatrix $SLDCONF)" = 81920 ]
	for v in mma_swizzle mma_pipeline; do
		[ "$(metric "$json" $v $SLDWF)" = 16384 ]
		[ "$(metric "$json" $v $SLDCONF)" = 0 ]
	done
}

@test "hgemm 256: mma_pipeline loads A and B only through cp.async (LDGSTS)" {
	run --separate-stderr "$GPULAB" run hgemm --variant mma_swizzle,mma_pipeline --size 256 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	# 16 CTAs x 8 K tiles x 4 chunk loops x 4 warps, 512 bytes (16 sectors) each; each tile read by 4 CTAs
	[ "$(metric "$json" mma_pipeline $LDGSTS_REQ)" = 2048 ]
	[ "$(metric "$json" mma_pipeline $LDGSTS_SECT)" = 32768 ]
	[ "$(metric "$json" mma_pipeline $GLD)" = null ] || [ "$(metric "$json" mma_pipeline $GLD)" = 0 ]
	[ "$(metric "$json" mma_swizzle $GLD)" = 32768 ]
	[ "$(metric "$json" mma_swizzle $LDGSTS_REQ)" = null ]
}

@test "hgemm: the table shows the HMMA, LDSM and LDGSTS line and ldmatrix's wavefronts per request" {
	run --separate-stderr "$GPULAB" run hgemm --variant simt,mma_ldmatrix,mma_pipeline --size 64 --backend sim --db "$DB"
	assert_success
	assert_output --partial "TC  mma_ldmatrix: HMMA 128 (5.243e+05 tensor FLOP fp16->fp32), LDSM 64"
	assert_output --partial "TC  mma_pipeline: HMMA 128 (5.243e+05 tensor FLOP fp16->fp32), LDSM 64, LDGSTS 32 requests 512 sectors"
	refute_output --partial "TC  simt"
	assert_line --regexp '^mma_ldmatrix +yes .* 24\.00 '
}

@test "hgemm: simt takes any size; the tensor-core variants refuse sizes off their 64x64x32 tile" {
	run --separate-stderr "$GPULAB" run hgemm --m 37 --n 50 --k 29 --variant simt --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '.launches[0].verified' <<<"$output")" = true ]
	run "$GPULAB" run hgemm --m 96 --n 64 --k 32 --variant mma --backend sim --db "$DB"
	assert_failure 2
	assert_output --partial "--m and --n must be multiples of 64 and --k a multiple of 32 (got m=96, n=64, k=32)"
	assert_output --partial "--variant simt"
	run --separate-stderr "$GPULAB" run hgemm --m 128 --n 64 --k 96 --variant all --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 7 ]
}

@test "hgemm --size 100 --variant mma is refused before the table header, and no database is made" {
	run --separate-stderr "$GPULAB" run hgemm --size 100 --variant mma --db "$BATS_TEST_TMPDIR/new.db"
	assert_failure 2
	[ -z "$output" ]
	[[ "$stderr" == *"hgemm mma tiles the CTA by 64x64x32"*"--variant simt"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/new.db" ]
	# all variants: the tensor-core ones are skipped, each with its rule, and simt runs
	run --separate-stderr "$GPULAB" run hgemm --size 96 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq -r '[.launches[].variant] | join(",")' <<<"$output")" = simt ]
	[[ "$stderr" == *"skipped hgemm mma_pipeline: it tiles the CTA by 64x64x32"* ]]
}
