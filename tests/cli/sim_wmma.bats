#!/usr/bin/env bats
# gpulab sim on nvcuda::wmma GEMMs (tests/fixtures/sim/wmma.cu, through nvcc when it is here, else the
# committed wmma.ptx): D checked against python3's reference (wmma_ref.py), tensor-pipe instructions
# counted one per mma.m16n8kK tile (docs/sim.md), and memory counts of the warp-level loads.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
	SRC="$FX/wmma.ptx"
	if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then SRC="$FX/wmma.cu"; fi
}

# gemm KERNEL BLOCK METRIC COUNT ARGS...: generate inputs, run, check D and the tensor-pipe count
gemm() {
	local kernel=$1 block=$2 metric=$3 count=$4
	shift 4
	python3 "$FX/wmma_ref.py" gen "$kernel" "$OUT"
	run --separate-stderr "$GPULAB" sim "$SRC" --kernel "$kernel" --grid 1 --block "$block" "$@" \
		--dump "out=$OUT/out.bin" --json
	assert_success
	[ "$(jq '.sanitizer | length' <<<"$output")" = 0 ]
	[ "$(jq ".metrics[\"smsp__inst_executed_pipe_tensor_op_$metric.sum\"]" <<<"$output")" = "$count" ]
	python3 "$FX/wmma_ref.py" check "$kernel" "$OUT"
}

@test "wmma f16 -> f32 GEMM: C = 2AB + C/2 matches; two HMMA per 16x16x16; loads as ptxas makes them" {
	# 4 warps, K = 32: 2 wmma.mma each, 2 HMMA per mma
	gemm wmma_gemm_f16 128 hmma 16 --arg buf:a:f16:1024:file:$OUT/a.bin --arg buf:b:f16:1024:file:$OUT/b.bin \
		--arg buf:out:f32:1024:file:$OUT/c.bin --arg i32:32 --arg i32:32 --arg i32:32 --arg f32:2 --arg f32:0.5
	# per warp: 2 x (4 A + 4 B registers) of 32 bits (ptxas: LDG.E) + 4 f32 accumulator pairs of 64
	# bits (LDG.E.64) loaded, 4 pairs stored (STG.E.64); each covers 8 rows x (4 lanes x 4 or 8 bytes)
	# inside one sector per row: 8 sectors per request
	[ "$(jq '.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 80 ]
	[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 640 ]
	[ "$(jq '.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]' <<<"$output")" = 16 ]
	[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]' <<<"$output")" = 128 ]
}

@test "wmma bf16 (A col-major, B row-major, D stored col-major) and tf32 m16n16k8 GEMMs match" {
	gemm wmma_gemm_bf16 128 hmma 16 --arg buf:a:bf16:1024:file:$OUT/a.bin --arg buf:b:bf16:1024:file:$OUT/b.bin \
		--arg buf:out:f32:1024 --arg i32:32 --arg i32:32 --arg i32:32
	# col-major A and row-major B: ptxas reads 32-bit words along the contiguous dimension and transposes
	# them in registers (MOVM): still 4 requests per fragment, 8 sectors each; D col-major, 8 f32
	# stores of 8 rows x 4 columns (4 sectors)
	[ "$(jq '.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 64 ]
	[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 512 ]
	[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]' <<<"$output")" = 128 ]
	# tf32 m16n16k8 is four HMMA.1684 (m16n8k4) on sm_80: 4 warps x 4 k-steps x 4
	gemm wmma_gemm_tf32 128 hmma 64 --arg buf:a:f32:1024:file:$OUT/a.bin --arg buf:b:f32:1024:file:$OUT/b.bin \
		--arg buf:out:f32:1024 --arg i32:32 --arg i32:32 --arg i32:32
}

# gemm_misaligned KERNEL BLOCK METRIC COUNT ARGS...: as gemm, for a kernel whose 8-bit tiles start every 16
# (or 8) bytes: CUDA documents that load_matrix_sync's pointer must be 256-bit aligned, so each such
# wmma.load is a misaligned finding (exit 1), while D and the tensor-pipe count are still checked
gemm_misaligned() {
	local kernel=$1 block=$2 metric=$3 count=$4
	shift 4
	python3 "$FX/wmma_ref.py" gen "$kernel" "$OUT"
	run --separate-stderr "$GPULAB" sim "$SRC" --kernel "$kernel" --grid 1 --block "$block" "$@" \
		--dump "out=$OUT/out.bin" --json
	assert_failure 1
	[ "$(jq -r '[.sanitizer[].kind] | unique | join(",")' <<<"$output")" = misaligned ]
	[ "$(jq -r '[.sanitizer[].message | test("^misaligned wmma.load read of a matrix at 0x[0-9a-f]+: it must be 32-byte")] | all' <<<"$output")" = true ]
	[ "$(jq ".metrics[\"smsp__inst_executed_pipe_tensor_op_$metric.sum\"]" <<<"$output")" = "$count" ]
	python3 "$FX/wmma_ref.py" check "$kernel" "$OUT"
}

@test "wmma s8 and u8 (m32n8k16) GEMMs into s32 match; counted as IMMA; 8-bit tiles off 32 bytes are findings" {
	gemm_misaligned wmma_gemm_s8 128 imma 16 --arg buf:a:i8:1024:file:$OUT/a.bin --arg buf:b:i8:1024:file:$OUT/b.bin \
		--arg buf:c:i32:1024:file:$OUT/c.bin --arg buf:out:i32:1024 --arg i32:32 --arg i32:32 --arg i32:32
	[ "$(jq '.metrics["smsp__inst_executed_pipe_tensor_op_hmma.sum"]' <<<"$output")" = null ]
	gemm_misaligned wmma_gemm_u8_m32n8 128 imma 16 --arg buf:a:u8:2048:file:$OUT/a.bin --arg buf:b:u8:512:file:$OUT/b.bin \
		--arg buf:out:i32:1024 --arg i32:64 --arg i32:16 --arg i32:32
}

@test "wmma f64 m8n8k4 GEMM matches; one DMMA per wmma.mma" {
	gemm wmma_gemm_f64 128 dmma 16 --arg buf:a:f64:256:file:$OUT/a.bin --arg buf:b:f64:256:file:$OUT/b.bin \
		--arg buf:out:f64:256 --arg i32:16 --arg i32:16 --arg i32:16
}

@test "wmma m32n8k16 and m8n32k16 with f16 accumulators from shared memory with a padded stride" {
	gemm wmma_m32n8k16_f16 32 hmma 2 --arg buf:a:f16:512:file:$OUT/a.bin --arg buf:b:f16:128:file:$OUT/b.bin \
		--arg buf:c:f16:256:file:$OUT/c.bin --arg buf:out:f16:256
	[ "$(jq '.metrics["smsp__inst_executed_op_shared_ld.sum"] > 0' <<<"$output")" = true ]
	# ptxas computes m8n32k16 as the transposed m32n8k16 product: two HMMA.16816
	gemm wmma_m8n32k16_f16 32 hmma 2 --arg buf:a:f16:128:file:$OUT/a.bin --arg buf:b:f16:512:file:$OUT/b.bin \
		--arg buf:c:f16:256:file:$OUT/c.bin --arg buf:out:f16:256
}

@test "wmma fragment layout: x[i] of a 16x16 f16 A fragment is the mma.m16n8k16 A layout, twice" {
	python3 -c 'import struct; open("'"$OUT"'/a.bin","wb").write(struct.pack("<256e", *range(256)))'
	run --separate-stderr "$GPULAB" sim "$SRC" --kernel wmma_frag_a --grid 1 --block 32 \
		--arg buf:a:f16:256:file:$OUT/a.bin --arg buf:out:f32:512 --dump "out=$OUT/out.bin"
	assert_success
	python3 - "$OUT/out.bin" <<'EOF2'
import struct, sys
x = struct.unpack('<512f', open(sys.argv[1], 'rb').read())
for lane in range(32):
    g, t = lane >> 2, lane & 3
    for i in range(16):
        r = (i % 8) // 2
        row, col = g + 8 * (r % 2), (r // 2) * 8 + 2 * t + (i & 1)
        assert x[lane * 16 + i] == row * 16 + col, (lane, i, x[lane * 16 + i], row, col)
EOF2
}
