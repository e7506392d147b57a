#!/usr/bin/env bats
# gpulab run conv2d: every variant verified against a direct convolution in double, in both layouts and
# at an odd size; FFMA and HMMA counts by the rules; the im2col buffer's cost measured; bad input.

setup() {
	load test_helper
	common_setup
}

FFMA=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
HMMA=smsp__inst_executed_pipe_tensor_op_hmma.sum
LD=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
ST=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
SLDC=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum

global_sectors() { # JSON VARIANT: global load + store sectors of the variant (its total over launches)
	echo $(($(metric "$1" "$2" $LD) + $(metric "$1" "$2" $ST)))
}

@test "conv2d default layer (28x28, 64 -> 64, 3x3, pad 1): five variants verified in nchw, counts by the rules" {
	run --separate-stderr "$GPULAB" run conv2d --variant all --backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$json")" = 5 ]
	# direct: one FFMA per in-bounds tap: 82 of the 28 rows' 3 taps (26*3 + 2*2), squared, x C x K
	[ "$(metric "$json" direct $FFMA)" = $((82 * 82 * 64 * 64)) ]
	# the GEMMs run whole tiles: M = 784 -> 13 tiles of 64, K = 64, Kd = 576 in steps of 16
	[ "$(metric "$json" implicit_gemm $FFMA)" = $((13 * 64 * 64 * 576)) ]
	[ "$(metric "$json" im2col_gemm $FFMA)" = $((13 * 64 * 64 * 576)) ]
	# one HMMA per mma.sync m16n8k16: 13 x 1 CTA tiles x 18 K tiles of 32 x 64 per tile step
	[ "$(metric "$json" implicit_gemm_mma $HMMA)" = $((13 * 1 * 18 * 64)) ]
	# (a kernel without mma.sync may leave the metric out: none executed)
	[ "$(jq '.launches[] | select(.variant == "implicit_gemm") | .metrics["'$HMMA'"] // 0' <<<"$json")" = 0 ]
	# ldmatrix from the swizzled tile is conflict-free
	[ "$(metric "$json" implicit_gemm_mma $SLDC)" = 0 ]
}

@test "conv2d im2col_gemm: two launches, the first writes the N*P*Q x C*R*S im2col matrix; more global bytes than implicit_gemm" {
	run --separate-stderr "$GPULAB" run conv2d --variant im2col_gemm,implicit_gemm --backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq -r '.launches[] | select(.variant == "im2col_gemm") | .parts | map(.entry) | join(",")' <<<"$json")" = \
		conv2d_im2col,conv2d_gemm ]
	[ "$(metric "$json" im2col_gemm gpulab__conv2d_im2col_buffer_bytes.sum)" = 1806336 ]
	[ "$(metric "$json" implicit_gemm gpulab__conv2d_im2col_buffer_bytes.sum)" = null ]
	# FLOPs with tensor cores: 2 x FFMA for the SIMT GEMM, 4096 x HMMA for the mma variant
	[ "$(metric "$json" implicit_gemm gpulab__conv2d_flops.sum)" = $((2 * 13 * 64 * 64 * 576)) ]
	# 784 x 576 floats written whole: 1,806,336 bytes in 56,448 sectors
	[ "$(jq '.launches[] | select(.variant == "im2col_gemm") | .parts[0].metrics["'$ST'"]' <<<"$json")" = 56448 ]
	im2col=$(global_sectors "$json" im2col_gemm)
	implicit=$(global_sectors "$json" implicit_gemm)
	((im2col > implicit)) || { echo "im2col $im2col sectors, implicit $implicit"; false; }
}

@test "conv2d nhwc: verified; the tensor-core variant loads 16-byte vectors (16 sectors per request) with no conflicts" {
	run --separate-stderr "$GPULAB" run conv2d --variant all --layout nhwc --backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$json")" = 5 ]
	[ "$(jq -r '.launches[0].params.layout' <<<"$json")" = nhwc ]
	req=$(metric "$json" implicit_gemm_mma l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum)
	sec=$(metric "$json" implicit_gemm_mma $LD)
	((sec > 15 * req)) || { echo "$sec sectors in $req requests"; false; }
	[ "$(metric "$json" implicit_gemm_mma l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum)" = 0 ]
	# the layout decides who reads what: direct in nhwc reads filter rows 576 floats apart per lane
	nchw=$("$GPULAB" run conv2d --variant direct --backend sim --db "$DB" --json 2>/dev/null)
	((sec = $(metric "$json" direct $LD), sec > 4 * $(metric "$nchw" direct $LD)))
}

@test "conv2d odd sizes (c 3, 31x29, k 7, stride 2) and a dilated, padded batch verify in both layouts" {
	for layout in nchw nhwc; do
		run --separate-stderr "$GPULAB" run conv2d --variant all --n 1 --c 3 --h 31 --w 29 --k 7 --r 3 --s 3 \
			--stride 2 --pad 1 --layout $layout --backend sim --db "$DB" --json
		assert_success
		[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 5 ]
		run --separate-stderr "$GPULAB" run conv2d --variant all --n 2 --c 9 --h 13 --w 10 --k 5 --r 2 --s 4 \
			--stride 3 --pad 2 --dilation 2 --layout $layout --backend sim --db "$DB" --json
		assert_success
		[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 5 ]
	done
}

@test "conv2d guidance: advice only where the model says its fix helps, naming the access; never a layout guess" {
	run --separate-stderr "$GPULAB" run conv2d --variant implicit_gemm,direct,implicit_gemm_mma --backend sim --db "$DB" \
		--json
	assert_success
	# implicit_gemm's NCHW stores are uncoalesced, but the estimate is latency-bound: coalescing them would not
	# help, so no rule says it; no rule judges a layout it did not measure
	[ "$(jq '[.launches[].guidance[] | select(.rule == "tensor_layout")] | length' <<<"$output")" = 0 ]
	[ "$(jq '[.launches[] | select(.variant == "implicit_gemm") | .guidance[] | select(.rule == "uncoalesced_global_stores")]
		| length' <<<"$output")" = 0 ]
	run --separate-stderr "$GPULAB" run conv2d --variant implicit_gemm_mma,direct --layout nhwc --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '[.launches[] | select(.variant == "implicit_gemm_mma") | .guidance[] | select(.severity != "INF")] | length' \
		<<<"$output")" = 0 ]
	# direct's loads in NHWC: the rule fires with the model's speedup and names the source line of the worst load
	jq -e '.launches[] | select(.variant == "direct") | .guidance[] | select(.rule == "uncoalesced_global_loads")
		| select(.message | test("16.5 sectors per request against an ideal of 4.0 .* the worst access is at source line [0-9]+ \\(PTX line [0-9]+\\)"))
		| select(.estimated_speedup > 0.3)' <<<"$output"
}

@test "conv2d list shows the layout choices; list --json lists them" {
	run "$GPULAB" list conv2d
	assert_success
	assert_output --partial "--layout     memory layout of x and y: nchw (filter KCRS) or nhwc (filter KRSC) (default nchw)"
	assert_output --partial "im2col_gemm"
	run --separate-stderr "$GPULAB" list conv2d --json
	assert_success
	[ "$(jq -r '.parameters[] | select(.name == "layout") | .choices | join(",")' <<<"$output")" = nchw,nhwc ]
}

@test "conv2d bad input: unknown layout, a filter larger than the padded input, a patch over 48 KiB" {
	bad_input 2 "--layout: unknown value 'nhwx' (did you mean 'nhwc'?)" run conv2d --layout nhwx --backend sim --db "$DB"
	bad_input 2 "does not fit a 2x2 input padded by 0" run conv2d --h 2 --w 2 --r 5 --pad 0 --backend sim --db "$DB"
	bad_input 2 "over 48 KiB" run conv2d --variant direct_smem --stride 8 --r 15 --s 15 --dilation 8 --h 200 --w 200 \
		--c 1 --k 1 --backend sim --db "$DB"
}
