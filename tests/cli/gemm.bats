#!/usr/bin/env bats
# gpulab run gemm: every variant verified against OpenBLAS, exactly one FFMA per multiply-add, global
# load sectors falling step by step, guarded edges, and the float4 variants' refusals.

setup() {
	load test_helper
	common_setup
}

FFMA=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
FMUL=smsp__sass_thread_inst_executed_op_fmul_pred_on.sum
FADD=smsp__sass_thread_inst_executed_op_fadd_pred_on.sum
LD=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
LDREQ=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
ST=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum

@test "gemm 256: all seven variants verified, 256^3 FFMAs each, load sectors strictly falling" {
	run --separate-stderr "$GPULAB" run gemm --variant all --size 256 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$json")" = 7 ]
	for v in naive coalesced smem blocktile1d blocktile2d vectorized warptile; do
		[ "$(metric "$json" $v $FFMA)" = 16777216 ] || { echo "$v: $(metric "$json" $v $FFMA) FFMAs"; false; }
		# the epilogue alpha*acc + beta*c is two multiplies and an add per element, never an fma
		[ "$(metric "$json" $v $FMUL)" = 131072 ]
		[ "$(metric "$json" $v $FADD)" = 65536 ]
	done
	prev=
	for v in naive coalesced smem blocktile1d blocktile2d; do
		cur=$(metric "$json" $v $LD)
		[ -z "$prev" ] || ((cur < prev)) || { echo "$v: $cur sectors, not below $prev"; false; }
		prev=$cur
	done
	# naive: 2048 warps x 256 k x (32 A sectors + 1 B) + C read down columns (32 per request)
	[ "$(metric "$json" naive $LD)" = 17367040 ]
	# coalesced: A broadcast (1) + B 32 floats (4) per warp and k, + C 8192
	[ "$(metric "$json" coalesced $LD)" = 2629632 ]
	# tiles: 256^3 * (1/BM + 1/BN) floats / 8 per sector, + C 8192
	[ "$(metric "$json" smem $LD)" = 139264 ]
	[ "$(metric "$json" blocktile1d $LD)" = 73728 ]
	[ "$(metric "$json" blocktile2d $LD)" = 40960 ]
	# float4: the same sectors in a quarter of the requests (16 sectors each)
	[ "$(metric "$json" vectorized $LD)" = 40960 ]
	[ "$(metric "$json" vectorized $LDREQ)" = 2560 ]
	[ "$(metric "$json" warptile $LDREQ)" = 2560 ]
	for v in coalesced smem blocktile1d blocktile2d vectorized warptile; do
		[ "$(metric "$json" $v $ST)" = 8192 ]
	done
	[ "$(metric "$json" naive $ST)" = 65536 ]
}

@test "gemm: sizes that are not tile multiples are guarded and verified" {
	run --separate-stderr "$GPULAB" run gemm --m 37 --n 100 --k 92 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 7 ]
	run --separate-stderr "$GPULAB" run gemm --m 130 --n 129 --k 67 --variant naive,coalesced,smem,blocktile1d,blocktile2d \
		--backend sim --db "$DB" --json
	assert_success
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 5 ]
	run --separate-stderr "$GPULAB" run gemm --size 1 --variant naive,smem,blocktile2d --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 3 ]
}

@test "gemm: zero-filled edge tiles still run their FFMAs, guarded thread-per-element ones do not" {
	run --separate-stderr "$GPULAB" run gemm --m 40 --n 40 --k 40 --variant coalesced,smem --backend sim --db "$DB" --json
	assert_success
	[ "$(metric "$output" coalesced $FFMA)" = 64000 ]
	# smem: 2x2 blocks of 32x32 threads, each running two 32-wide k tiles
	[ "$(metric "$output" smem $FFMA)" = 262144 ]
}

@test "gemm vectorized refuses n that is not a multiple of 4, naming the guarded variants" {
	bad_input 2 "gemm vectorized moves float4s, so rows must start on 16 bytes: --n and --k must be multiples of 4 (got n=30, k=32)" \
		run gemm --variant vectorized --m 32 --n 30 --k 32 --backend sim --db "$DB"
	assert_output --partial "--variant naive,coalesced,smem,blocktile1d,blocktile2d"
}

@test "gemm warptile refuses k that is not a multiple of 4" {
	bad_input 2 "gemm warptile moves float4s" run gemm --variant warptile --size 30 --backend sim --db "$DB"
	assert_output --partial "(got n=30, k=30)"
}

@test "gemm: a parameter out of range, and one of another topic" {
	bad_input 2 "--k 0 is out of range (expected 1 to 16384)" run gemm --k 0 --backend sim --db "$DB"
	bad_input 2 "--rows does not apply to topic gemm (its parameters: --m, --n, --k, --size)" \
		run gemm --rows 4 --backend sim --db "$DB"
}

@test "list gemm says which variants take any size" {
	run "$GPULAB" list gemm
	assert_success
	assert_output --partial "warptile"
	assert_output --partial "(n, k multiples of 4)"
	assert_output --partial "(any size)"
	assert_output --partial "--k"
}
