#!/usr/bin/env bats
# gpulab sim: any kernel of a .cu (through nvcc) or .ptx file with arguments from the command line —
# kernel names, argument specs and their errors, --dump checked against host values computed with
# python3's standard library, exact counts (memory-model.md), sanitizer findings and exit codes,
# device printf, the database only when asked, and --trace.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
}

have_nvcc() {
	command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]
}

# floats FILE: the little-endian f32 values of a dump, one per line (as Python's repr)
floats() {
	python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); [print(v) for v in struct.unpack("<%df" % (len(d)//4), d)]' "$1"
}

@test "a .cu file is compiled by nvcc; the C++ base name finds the mangled kernel; --dump holds a*x+y" {
	have_nvcc || skip "no nvcc here"
	run --separate-stderr "$GPULAB" sim "$FX/saxpy.cu" --kernel saxpy --grid 4 --block 256 --arg i32:1000 \
		--arg f32:2.5 --arg buf:x:f32:1000:seq --arg buf:y:f32:1000:const:1 --dump "y=$OUT/y.bin" --json
	assert_success
	[ "$(jq -r .kernel <<<"$output")" = _Z5saxpyifPKfPf ]
	[ "$(jq -c .grid <<<"$output")" = "[4,1,1]" ]
	[ "$(jq -c .block <<<"$output")" = "[256,1,1]" ]
	# 32 warps, two loads each; the last warp has 8 lanes on (1 sector), the others 4 sectors per load
	[ "$(jq '.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 64 ]
	[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 250 ]
	[ "$(jq '.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]' <<<"$output")" = 32 ]
	[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]' <<<"$output")" = 125 ]
	[ "$(jq '.metrics["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"]' <<<"$output")" = 1000 ]
	[ "$(jq '.sanitizer | length' <<<"$output")" = 0 ]
	[ "$(jq -r '.sim.threads > 0 and .sim.warp_instructions > 0 and .sim.thread_instructions > 0' <<<"$output")" = true ]
	python3 - "$OUT/y.bin" <<'EOF'
import struct, sys
d = open(sys.argv[1], 'rb').read()
assert len(d) == 4000, len(d)
y = struct.unpack('<1000f', d)
for i, v in enumerate(y):
    assert v == 2.5 * i + 1, (i, v)
EOF
}

@test "a .ptx file is used as is; the text output has the launch, the metrics and the sanitizer summary" {
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel _Z5saxpyifPKfPf --grid 2 --block 128 --arg i32:256 --arg f32:1 \
		--arg buf:x:f32:256 --arg buf:y:f32:256
	assert_success
	assert_output --partial "kernel _Z5saxpyifPKfPf (saxpy) from"
	assert_output --partial "launch grid (2,1,1) block (128,1,1), 0 bytes of dynamic shared memory, 256 threads"
	assert_output --regexp "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum +32  sector"
	assert_output --partial "========= ERROR SUMMARY: 0 errors"
	[ ! -e "$DB" ]
	[ ! -e "$HOME/.local/share/gpulab/gpulab.db" ]
}

@test "global access patterns: sectors per request as memory-model.md counts them" {
	for spec in "1 0 64" "2 0 128" "8 0 512" "1 1 80" "1 8 64"; do
		set -- $spec
		run --separate-stderr "$GPULAB" sim "$FX/gmem.ptx" --kernel strided --grid 4 --block 128 \
			--arg buf:in:f32:5000:seq --arg buf:out:f32:512 --arg "i32:$1" --arg "i32:$2" --json
		assert_success
		[ "$(jq '.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 16 ]
		[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = "$3" ]
	done
	run --separate-stderr "$GPULAB" sim "$FX/gmem.ptx" --kernel copy4 --grid 1 --block 64 --arg buf:in:f32:256 \
		--arg buf:out:f32:256 --json
	[ "$(jq '.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]' <<<"$output")" = 32 ]
}

@test "shared strides: wavefronts and bank conflicts of 32-bit, 64-bit and 128-bit accesses" {
	for spec in "stride32 f32 32 1 1 0" "stride32 f32 32 32 32 31" "stride32 f32 32 33 1 0" \
		"stride64 f64 32 16 32 30" "vec128 f32 128 8 32 28"; do
		set -- $spec
		run --separate-stderr "$GPULAB" sim "$FX/smem.ptx" --kernel "$1" --grid 1 --block 32 \
			--arg "buf:in:$2:$3:seq" --arg "buf:out:$2:$3" --arg "i32:$4" --json
		assert_success
		[ "$(jq '.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]' <<<"$output")" = "$5" ]
		[ "$(jq '.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]' <<<"$output")" = "$6" ]
		[ "$(jq '.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]' <<<"$output")" = "$6" ]
	done
}

@test "dynamic shared memory comes from --smem; too little is an out-of-bounds shared write" {
	run "$GPULAB" sim "$FX/smem.ptx" --kernel reverse_dyn --grid 1 --block 64 --smem 256 \
		--arg buf:d:f32:64:seq --arg i32:64 --dump "d=$OUT/d.bin"
	assert_success
	run floats "$OUT/d.bin"
	[ "${lines[0]}" = 63.0 ] && [ "${lines[63]}" = 0.0 ]
	run "$GPULAB" sim "$FX/smem.ptx" --kernel reverse_dyn --grid 1 --block 64 --smem 128 --arg buf:d:f32:64 --arg i32:64
	[ "$status" -eq 1 ]
	assert_output --partial "========= Invalid __shared__ write of size 4 bytes at PTX line"
	assert_output --partial "the CTA has 128 bytes of shared memory"
}

@test "mma.sync m16n8k16: D = A*B + C against Python's product of the f16 inputs" {
	python3 - "$OUT" <<'EOF'
import struct, sys, random
random.seed(5)
out = sys.argv[1]
A = [random.randint(-8, 8) / 4 for _ in range(256)]
Bt = [random.randint(-8, 8) / 4 for _ in range(128)]
C = [random.randint(-5, 5) for _ in range(128)]
open(out + '/a.bin', 'wb').write(struct.pack('<256e', *A))
open(out + '/b.bin', 'wb').write(struct.pack('<128e', *Bt))
open(out + '/c.bin', 'wb').write(struct.pack('<128f', *C))
D = [C[r * 8 + n] + sum(A[r * 16 + k] * Bt[n * 16 + k] for k in range(16)) for r in range(16) for n in range(8)]
open(out + '/want.bin', 'wb').write(struct.pack('<128f', *D))
EOF
	run --separate-stderr "$GPULAB" sim "$FX/mma.ptx" --kernel mma_f16_f32 --grid 1 --block 32 \
		--arg "buf:A:f16:256:file:$OUT/a.bin" --arg "buf:Bt:f16:128:file:$OUT/b.bin" \
		--arg "buf:C:f32:128:file:$OUT/c.bin" --arg buf:D:f32:128 --dump "D=$OUT/d.bin" --json
	assert_success
	[ "$(jq '.metrics["smsp__inst_executed_pipe_tensor_op_hmma.sum"]' <<<"$output")" = 1 ]
	[ "$(jq '.metrics["smsp__inst_executed_op_ldsm.sum"]' <<<"$output")" = 2 ]
	cmp "$OUT/d.bin" "$OUT/want.bin"
}

@test "atomics: counters, sums and the shared-memory copy" {
	run "$GPULAB" sim "$FX/atomics.ptx" --kernel atomics --grid 2 --block 64 --arg buf:g:u32:16 \
		--arg buf:g64:u64:4 --arg buf:gf:f32:4 --arg buf:gd:f64:2 --arg buf:old:u32:512 --arg buf:sh:u32:32 \
		--dump "g=$OUT/g.bin" --dump "gf=$OUT/gf.bin"
	assert_success
	python3 - "$OUT" <<'EOF'
import struct, sys
g = struct.unpack('<16I', open(sys.argv[1] + '/g.bin', 'rb').read())
gf = struct.unpack('<4f', open(sys.argv[1] + '/gf.bin', 'rb').read())
assert g[0] == 128 and g[1] == sum(range(128)), g
assert g[5] == 0xffffffff and g[8] == 128 % 10, g
assert gf[0] == 64.0 and gf[1] == float(sum(range(128))), gf
EOF
}

@test "warp shuffles, votes and reductions through the CLI" {
	run --separate-stderr "$GPULAB" sim "$FX/warpops.ptx" --kernel warpops --grid 1 --block 32 \
		--arg buf:in:u32:32:seq --arg buf:out:u32:512 --arg i32:8 --dump "out=$OUT/w.bin" --json
	assert_success
	python3 - "$OUT/w.bin" <<'EOF'
import struct, sys
o = struct.unpack('<512I', open(sys.argv[1], 'rb').read())
for l in range(32):
    r = o[16 * l:16 * l + 16]
    assert r[0] == (l - 3 if l >= 3 else l), (l, r[0])      # shfl up 3
    assert r[1] == (l + 5 if l + 5 < 32 else l), (l, r[1])  # shfl down 5
    assert r[2] == l ^ 6                                     # xor 6
    assert r[5] == (l + 2 if (l % 8) + 2 < 8 else l)         # down 2 within 8 lanes
    assert r[7] == l // 8 * 8 + 3                            # idx 3 within 8 lanes
    assert r[8] == 0xaaaaaaaa                                # ballot of odd lanes
    assert r[14] == sum(range(32))                           # butterfly sum
EOF
}

@test "out-of-bounds reads: compute-sanitizer lines, JSON findings and exit status 1" {
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel oob_read --grid 1 --block 64 --arg buf:in:f32:60 \
		--arg buf:out:f32:64 --arg i32:60
	[ "$status" -eq 1 ]
	assert_output --partial "========= Invalid __global__ read of size 4 bytes at PTX line 53 (CUDA line 10) in block (0,0,0) thread (60,0,0)"
	assert_output --partial "0 bytes after the end of buffer 'in'"
	assert_output --partial "========= ERROR SUMMARY: 4 errors"
	run --separate-stderr "$GPULAB" sim "$FX/sanitizer.ptx" --kernel oob_read --grid 1 --block 64 \
		--arg buf:in:f32:60 --arg buf:out:f32:64 --arg i32:60 --json
	[ "$status" -eq 1 ]
	# one distinct finding (kind, PTX line) seen 4 times, with the first occurrence's details
	[ "$(jq '.sanitizer | length' <<<"$output")" = 1 ]
	[ "$(jq -r '.sanitizer[0].kind' <<<"$output")" = out-of-bounds ]
	[ "$(jq -r '.sanitizer[0].space' <<<"$output")" = global ]
	[ "$(jq '.sanitizer[0].count' <<<"$output")" = 4 ]
	[ "$(jq -c '.sanitizer[0].thread' <<<"$output")" = "[60,0,0]" ]
	[ "$(jq -c '[.sanitizer[0].samples[].thread[0]]' <<<"$output")" = "[60,61,62,63]" ]
	[ "$(jq -c '.sanitizer[0].block' <<<"$output")" = "[0,0,0]" ]
	[ "$(jq '.sanitizer[0].line' <<<"$output")" = 53 ]
	[ "$(jq '.sanitizer[0].size' <<<"$output")" = 4 ]
	[ "$(jq '.sanitizer[0].address' <<<"$output")" = $((0x7f00000000f0)) ]
	[ "$(jq '.errors' <<<"$output")" = 4 ]
}

@test "races, misaligned reads, divergent barriers, endless loops and asserts fail the run" {
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel race --grid 1 --block 128 --arg buf:in:f32:128 --arg buf:out:f32:128
	[ "$status" -eq 1 ]
	assert_output --partial "========= Race reported between warps on __shared__ memory"
	# both sides, as compute-sanitizer names them: this read at line 27, the other warp's write at line 26
	assert_output --partial "Race reported between warps on __shared__ memory (4 bytes at 0x0) at PTX line 126 (CUDA line 27)"
	assert_output --regexp "shared-memory race \(read after write\) at 0x0: warps 0 and 3 access it between two barriers; the other access: write at [^ ]*sanitizer.cu:26 \(PTX line 116\)"
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel no_race --grid 1 --block 128 --arg buf:in:f32:128 --arg buf:out:f32:128
	assert_success
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel misaligned --grid 1 --block 32 --arg buf:in:u8:256 --arg buf:out:f32:32
	[ "$status" -eq 1 ]
	assert_output --partial "misaligned global read of size 4"
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel divergent_barrier --grid 1 --block 64 --arg buf:out:f32:64
	[ "$status" -eq 1 ]
	assert_output --partial "========= Barrier error detected. Divergent thread(s) in warp at PTX line"
	assert_output --partial "(the launch was aborted)"
	SECONDS=0
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel endless --grid 4 --block 64 --arg buf:flag:i32:1 \
		--arg buf:out:i32:64 --max-instructions 100000
	[ "$status" -eq 1 ]
	[ "$SECONDS" -lt 20 ]
	assert_output --partial "instruction budget of 100000 warp instructions per CTA exhausted"
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel assert_fail --grid 1 --block 32 --arg buf:in:i32:32:const:-2
	[ "$status" -eq 1 ]
	assert_output --partial "sanitizer.cu:62: void assert_fail(const int *): block: [0,0,0], thread: [0,0,0] Assertion \`in[threadIdx.x] >= 0\` failed."
	assert_output --partial "========= Device-side assertion failed at PTX line"
}

@test "device printf output, in grid order" {
	run --separate-stderr "$GPULAB" sim "$FX/printf.ptx" --kernel hello --grid 2 --block 32 --arg i32:2 --arg f32:0.5 --json
	assert_success
	[ "$(jq -r .printf <<<"$output")" = "thread 0 of 32: x=0.00 half=  0.0 s=even c=a ll=0 u=0 hex=0xff
thread 1 of 32: x=0.50 half=  0.5 s=odd c=b ll=1099511627776 u=4294967295 hex=0x100
100% done
thread 0 of 32: x=0.00 half=  0.0 s=even c=a ll=0 u=0 hex=0xff
thread 1 of 32: x=0.50 half=  0.5 s=odd c=b ll=1099511627776 u=4294967295 hex=0x100
100% done" ]
	run "$GPULAB" sim "$FX/printf.ptx" --kernel hello --grid 1 --block 32 --arg i32:1 --arg f32:0.5
	assert_output --partial "device printf output:
thread 0 of 32: x=0.00"
}

@test "kernel names: overloads are ambiguous, namespaces and templates resolve, device functions are refused" {
	run "$GPULAB" sim "$FX/names.ptx" --kernel scale --grid 1 --block 4 --arg buf:x:f32:4 --arg f32:2
	[ "$status" -eq 2 ]
	assert_output --partial "kernel name 'scale' is ambiguous"
	assert_output --partial "_Z5scalePff (scale(float*, float)), _Z5scalePdd (scale(double*, double))"
	run "$GPULAB" sim "$FX/names.ptx" --kernel _Z5scalePdd --grid 1 --block 4 --arg buf:x:f64:4:seq --arg f64:3 \
		--dump "x=$OUT/x.bin"
	assert_success
	python3 -c 'import struct,sys; assert struct.unpack("<4d", open(sys.argv[1],"rb").read()) == (0.0, 3.0, 6.0, 9.0)' "$OUT/x.bin"
	run "$GPULAB" sim "$FX/names.ptx" --kernel ops::negate --grid 1 --block 4 --arg buf:x:i32:4:seq
	assert_success
	run "$GPULAB" sim "$FX/names.ptx" --kernel negate --grid 1 --block 4 --arg buf:x:i32:4:seq
	assert_success
	run "$GPULAB" sim "$FX/names.ptx" --kernel fill --grid 1 --block 4 --arg buf:x:i32:4
	assert_success
	run "$GPULAB" sim "$FX/names.ptx" --kernel negat --grid 1 --block 4 --arg buf:x:i32:4
	[ "$status" -eq 2 ]
	assert_output --partial "no kernel named 'negat'"
	assert_output --partial "(did you mean 'negate'?)"
	assert_output --partial "_ZN3ops6negateEPi (ops::negate(int*))"
	run "$GPULAB" sim "$FX/names.ptx" --kernel twice --grid 1 --block 4 --arg buf:x:i32:4
	[ "$status" -eq 2 ]
	assert_output --partial "'twice' (_Z5twicei) is a device function (.func), not a kernel"
	# template arguments as the source spells them: 1U, 1u, 1 and 0x1 are one unsigned 1; true is 1, 16L is 16
	for k in 'mergeSortSharedKernel<1U>' 'mergeSortSharedKernel<1>' 'mergeSortSharedKernel< 0x1 >' \
		'flags<true, 16L>' 'flags<1,16>'; do
		run "$GPULAB" sim "$FX/templates.ptx" --kernel "$k" --grid 1 --block 4 --arg buf:d:u64:4
		assert_success
	done
	run "$GPULAB" sim "$FX/templates.ptx" --kernel 'mergeSortSharedKernel<2U>' --grid 1 --block 4 --arg buf:d:u32:4
	[ "$status" -eq 2 ]
	assert_output --partial "no kernel named 'mergeSortSharedKernel<2U>'"
	# a call that was not inlined runs (tests/cli/sim_calls.bats)
	run "$GPULAB" sim "$FX/names.ptx" --kernel plain --grid 1 --block 4 --arg buf:x:i32:4:seq --dump "x=$OUT/x.bin"
	assert_success
	python3 -c 'import struct,sys; assert struct.unpack("<4i", open(sys.argv[1],"rb").read()) == (0, 2, 4, 6)' "$OUT/x.bin"
}

@test "argument errors name the parameter and the fix" {
	base=(sim "$FX/saxpy.ptx" --kernel saxpy --grid 1 --block 32)
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:2 --arg buf:x:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "takes 4 parameters (.u32, .f32, .u64 (pointer or 64-bit integer), .u64 (pointer or 64-bit integer)) but 3 --arg were given"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg buf:a:f32:4 --arg buf:x:f32:4 --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "parameter 2 (_Z5saxpyifPKfPf_param_1, .f32)"
	assert_output --partial "not a pointer: pass a scalar such as f32:V"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:2 --arg i32:3 --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "parameter 3 (_Z5saxpyifPKfPf_param_2, .u64)"
	assert_output --partial "takes 8 bytes (a pointer or a 64-bit value)"
	run "$GPULAB" "${base[@]}" --arg f32:1 --arg f32:2 --arg buf:x:f32:4 --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "is an integer: pass i32:V or u32:V"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:2 --arg buf:x:half:4 --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "unknown DTYPE 'half'"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:2 --arg buf:x:f32:4:ones --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "unknown INIT 'ones'"
	run "$GPULAB" "${base[@]}" --arg i32:99999999999 --arg f32:2 --arg buf:x:f32:4 --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "does not fit in 32 bits (use i64:)"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:abc --arg buf:x:f32:4 --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "'abc' is not a number"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:2 --arg buf:x:f32:4 --arg buf:x:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "there is already a buffer named 'x'"
	printf 'abcdef' >"$OUT/six.bin"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:2 --arg "buf:x:f32:4:file:$OUT/six.bin" --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "has 6 bytes but 4 x f32 needs exactly 16 bytes"
	run "$GPULAB" "${base[@]}" --arg i32:1 --arg f32:2 --arg buf:x:f32:4 --arg buf:y:f32:4 --dump "z=$OUT/z"
	[ "$status" -eq 2 ]
	assert_output --partial "no buffer named 'z' (buffers: x, y)"
	[ ! -e "$OUT/z" ]
}

@test "rand:SEED is splitmix64: floats in [0,1), integers in [0,100), reproducible in Python" {
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel saxpy --grid 1 --block 32 --arg i32:0 --arg f32:0 \
		--arg buf:x:f32:64:rand:42 --arg buf:y:f32:64 --dump "x=$OUT/r.bin"
	assert_success
	run "$GPULAB" sim "$FX/names.ptx" --kernel plain_ok --grid 1 --block 4 --arg buf:x:i32:8:rand:9 \
		--dump "x=$OUT/ri.bin"
	assert_success
	python3 - "$OUT" <<'EOF'
import struct, sys
M = (1 << 64) - 1
def splitmix(seed, n):
    s = seed
    for _ in range(n):
        s = (s + 0x9E3779B97F4A7C15) & M
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
        yield z ^ (z >> 31)
x = struct.unpack('<64f', open(sys.argv[1] + '/r.bin', 'rb').read())
assert list(x) == [(z >> 40) / 2**24 for z in splitmix(42, 64)]
assert all(0 <= v < 1 for v in x)
ri = struct.unpack('<8i', open(sys.argv[1] + '/ri.bin', 'rb').read())
want = [z % 100 for z in splitmix(9, 8)]
assert list(ri) == [w + (1 if i < 4 else 0) for i, w in enumerate(want)], (ri, want)
EOF
}

@test "nvcc's own errors are shown and exit 2; no nvcc is an environment error" {
	have_nvcc || skip "no nvcc here"
	printf '__global__ void k(float *x) { x[0] = undefined_thing; }\n' >"$OUT/bad.cu"
	run "$GPULAB" sim "$OUT/bad.cu" --kernel k --grid 1 --block 1 --arg buf:x:f32:1
	[ "$status" -eq 2 ]
	assert_output --partial 'identifier "undefined_thing" is undefined'
	assert_output --partial "nvcc could not compile"
	GPULAB_NVCC=/nonexistent/nvcc run "$GPULAB" sim "$OUT/bad.cu" --kernel k --grid 1 --block 1 --arg buf:x:f32:1
	[ "$status" -eq 3 ]
	assert_output --partial "nvcc not found (tried '/nonexistent/nvcc')"
}

@test "PTX the simulator cannot run is named with its line" {
	cat >"$OUT/tex.ptx" <<'EOF'
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	tex.2dms.v4.s32.s32 {%r1, %r2, %r3, %r1}, [%rd1, {%r1, %r2, %r3, %r1}];
	ret;
}
EOF
	run "$GPULAB" sim "$OUT/tex.ptx" --kernel k --grid 1 --block 1 --arg buf:p:f32:1
	[ "$status" -eq 2 ]
	assert_output --partial "tex.ptx:8:"
	assert_output --partial "unsupported instruction 'tex.2dms.v4.s32.s32' (multi-sample textures are not simulated)"
}

@test "usage errors" {
	run "$GPULAB" sim "$FX/saxpy.ptx" --grid 1 --block 1
	[ "$status" -eq 2 ]
	assert_output --partial "sim needs --kernel NAME"
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel saxpy --block 1
	[ "$status" -eq 2 ]
	assert_output --partial "--grid X[,Y[,Z]] and --block X[,Y[,Z]]"
	run "$GPULAB" sim --kernel saxpy --grid 1 --block 1
	[ "$status" -eq 2 ]
	assert_output --partial "sim needs a SOURCE file"
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel saxpy --grid 1 --block 1 --csv
	[ "$status" -eq 2 ]
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel saxpy --grid 1 --block 1 --trase
	[ "$status" -eq 2 ]
	assert_output --partial "did you mean '--trace'?"
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel saxpy --grid 1,2,3,4 --block 1
	[ "$status" -eq 2 ]
	assert_output --partial "at most three dimensions"
	run "$GPULAB" sim "$FX/saxpy.cpp" --kernel saxpy --grid 1 --block 1
	[ "$status" -eq 2 ]
	run "$GPULAB" sim "$FX/saxpy.ptx" --kernel saxpy --grid 1 --block 2048 --arg i32:1 --arg f32:2 \
		--arg buf:x:f32:4 --arg buf:y:f32:4
	[ "$status" -eq 2 ]
	assert_output --partial "a CTA has 1 to 1024 threads"
	run "$GPULAB" sim --help
	assert_success
	assert_output --partial "buf:NAME:DTYPE:COUNT[:INIT]"
	[ ! -e "$HOME/.local/share/gpulab/gpulab.db" ]
}

@test "--db stores the run as topic sim; --trace stores warp-level events" {
	run "$GPULAB" sim "$FX/smem.ptx" --kernel stride32 --grid 1 --block 32 --arg buf:in:f32:32:seq \
		--arg buf:out:f32:32 --arg i32:32 --db "$DB"
	assert_success
	assert_output --partial "stored as run 1 in"
	run "$GPULAB" query --db "$DB" "select topic, variant, verified from launches"
	assert_output --partial "sim    stride32         1"
	run "$GPULAB" query --db "$DB" --json "select value from metrics where name = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum'"
	[ "$(jq '.[0].value' <<<"$output")" = 31 ]
	run "$GPULAB" sim "$FX/sanitizer.ptx" --kernel oob_read --grid 1 --block 64 --arg buf:in:f32:60 \
		--arg buf:out:f32:64 --arg i32:60 --db "$DB" --trace
	[ "$status" -eq 1 ]
	run "$GPULAB" query --db "$DB" --json "select l.verified, l.note, count(e.seq) as events from launches l left join trace_events e on e.launch_id = l.id where l.run_id = 2 group by l.id"
	[ "$(jq '.[0].verified' <<<"$output")" = 0 ]
	[[ "$(jq -r '.[0].note' <<<"$output")" == "sanitizer: 4 errors, first: invalid __global__ read"* ]]
	[ "$(jq '.[0].events > 0' <<<"$output")" = true ]
	run "$GPULAB" query --db "$DB" "select status from runs where id = 2"
	assert_output --partial failed
}

@test "--sample-ctas scales the counts to the grid and says so; a stored run keeps ptxas's registers" {
	run --separate-stderr "$GPULAB" sim "$FX/smem.ptx" --kernel stride32 --grid 8 --block 32 \
		--arg buf:in:f32:256:seq --arg buf:out:f32:256 --arg i32:32 --sample-ctas 2 --db "$DB" --json
	assert_success
	[ "$(jq '.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]' <<<"$output")" = 248 ] # 8 x 31
	run "$GPULAB" query --db "$DB" --json "select regs, note from launches"
	[ "$(jq '.[0].regs > 0' <<<"$output")" = true ]
	[ "$(jq -r '.[0].note' <<<"$output")" = "2 of 8 CTAs simulated (--sample-ctas): counts scaled to the grid" ]
	run "$GPULAB" sim "$FX/smem.ptx" --kernel stride32 --grid 8 --block 32 --arg buf:in:f32:256:seq \
		--arg buf:out:f32:256 --arg i32:32 --sample-ctas 2 --cta-range 0:2
	[ "$status" -eq 2 ]
	assert_output --partial "--cta-range and --sample-ctas exclude each other"
}

@test "module-scope shared variables: each kernel gets the ones it names, as ptxas lays them out" {
	# k1: its own 4 bytes, then mb (align 8) at 8: 28 bytes, as ptxas -v says; lanes 5-7 read past mb
	run "$GPULAB" sim "$FX/shared_layout.ptx" --kernel k1 --grid 1 --block 8 --arg buf:out:u32:1
	[ "$status" -eq 1 ]
	assert_output --partial "invalid __shared__ read of size 4 at 0x1c: the CTA has 28 bytes of shared memory"
	assert_output --partial "3 occurrences; first in block (0,0,0) thread (5,0,0)"
	# k2: ma and mc only (20 bytes): clean
	run --separate-stderr "$GPULAB" sim "$FX/shared_layout.ptx" --kernel k2 --grid 1 --block 8 --arg buf:out:u32:1 --json
	assert_success
	[ "$(jq '.findings | length' <<<"$output")" = 0 ]
}

# wrap KERNEL BAD: run a wrap.ptx kernel whose lanes 1..31 use the 64-bit address BAD (lane 0 a valid one)
wrap() {
	run "$GPULAB" sim "$FX/wrap.ptx" --kernel "$1" --grid 1 --block 32 --arg buf:b:i32:128 --arg "u64:$2"
}

@test "addresses within an access of 2^64 are sanitizer errors in every memory path, never a crash" {
	for bad in 0xFFFFFFFFFFFFFFFC 0xFFFFFFFFFFFFFFF0; do
		wrap wrap_global $bad
		[ "$status" -eq 1 ]
		assert_output --partial "Invalid __global__ write of size 4 bytes"
		assert_output --partial "invalid __global__ write of size 4 at $(printf 0x%x $bad)"
		# .shared and .local addresses are 32 bits wide: the finding names the low 32 bits
		wrap wrap_shared $bad
		[ "$status" -eq 1 ]
		assert_output --partial "Invalid __shared__ write of size 4 bytes"
		assert_output --partial "invalid __shared__ write of size 4 at $(printf 0x%x $((bad & 0xffffffff))): the CTA has 128 bytes of shared memory"
		wrap wrap_atomic $bad
		[ "$status" -eq 1 ]
		assert_output --partial "invalid __global__ write of size 4 at $(printf 0x%x $bad)"
		wrap wrap_atomic_shared $bad
		[ "$status" -eq 1 ]
		assert_output --partial "invalid __shared__ write of size 4 at $(printf 0x%x $((bad & 0xffffffff)))"
		wrap wrap_local $bad
		[ "$status" -eq 1 ]
		assert_output --partial "Invalid __local__ read of size 4 bytes"
		wrap wrap_const $bad
		[ "$status" -eq 1 ]
		assert_output --partial "Invalid __constant__ read of size 4 bytes"
		wrap wrap_generic $bad
		[ "$status" -eq 1 ]
		assert_output --partial "Invalid __global__ write of size 4 bytes"
	done
	wrap wrap_global_v4 0xFFFFFFFFFFFFFFF0
	[ "$status" -eq 1 ]
	assert_output --partial "invalid __global__ read of size 16 at 0xfffffffffffffff0"
	wrap wrap_ldmatrix 0xFFFFFFFFFFFFFFF0
	[ "$status" -eq 1 ]
	assert_output --partial "invalid __shared__ read of size 16 at 0xfffffff0"
	wrap wrap_cp_async 0xFFFFFFFFFFFFFFF0
	[ "$status" -eq 1 ]
	assert_output --partial "invalid __shared__ write of size 16 at 0xfffffff0"
	# a generic address at the top of the (4 GiB) shared window is a shared offset just below 2^32
	wrap wrap_generic $((0x500000000000 + 0x100000000 - 4))
	[ "$status" -eq 1 ]
	assert_output --partial "invalid __shared__ write of size 4 at 0xfffffffc"
}

@test "a wrapped address leaves the buffer as the valid lanes wrote it (JSON findings name the space)" {
	run --separate-stderr "$GPULAB" sim "$FX/wrap.ptx" --kernel wrap_shared --grid 1 --block 32 \
		--arg buf:b:i32:128 --arg u64:0xFFFFFFFFFFFFFFFC --dump "b=$OUT/b.bin" --json
	[ "$status" -eq 1 ]
	[ "$(jq -r '[.sanitizer[] | select(.kind == "out-of-bounds") | .space] | unique | join(",")' <<<"$output")" = shared ]
	# the address as an unsigned integer (jq would round it to a double, so the text is checked)
	assert_output --partial '"space":"shared","address":4294967292,"size":4'
	[ "$(jq '.errors' <<<"$output")" = 31 ]
	# lane 0 stored 0 at shared offset 0; every thread reads s[tid % 32]: offset 0 holds 0, the rest the poison
	run python3 -c 'import struct,sys; d=struct.unpack("<128i", open(sys.argv[1],"rb").read()); print(d[0], len(set(d[1:32])), d[32:])' "$OUT/b.bin"
	assert_output --partial "0 1 (0, 0,"
}

@test "a parameter that .align pushes past the 4 KiB parameter buffer is refused (exit 2), never copied" {
	printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k(.param .u32 a, .param .align 4096 .u64 c, .param .align 4096 .u64 b)\n{\n\tret;\n}\n' >"$OUT/p.ptx"
	run "$GPULAB" sim "$OUT/p.ptx" --kernel k --grid 1 --block 32 --arg u32:1 --arg u64:1 --arg u64:0x4141414141414141
	[ "$status" -eq 2 ]
	assert_output --partial "parameter 2 'c' of 'k' lies at bytes 4096..4103 of the parameter buffer, past its 4096 bytes"
}

@test "a .shared address is 32 bits wide: a base below the array plus an offset reads the array, on both engines" {
	# nvcc -O3's form (issue 34): s[1] = 7, then ld.shared [(s - 4 as u32) + 8] must read s[1]
	cat >"$OUT/w.ptx" <<'PTX'
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<5>;
	.shared .align 4 .b32 s[4];
	mov.u32 %r1, 7;
	st.shared.u32 [s+4], %r1;
	bar.sync 0;
	mov.u32 %r2, s;
	add.u32 %r3, %r2, 0xfffffffc;
	ld.shared.u32 %r4, [%r3+8];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r5, %tid.x;
	mul.wide.u32 %rd3, %r5, 4;
	add.u64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r4;
	ret;
}
PTX
	engines=(interp)
	command -v "${GPULAB_CC:-cc}" >/dev/null 2>&1 && engines+=(compiled)
	for e in "${engines[@]}"; do
		XDG_CACHE_HOME="$OUT/cache" run "$GPULAB" sim "$OUT/w.ptx" --kernel k --grid 1 --block 32 \
			--arg buf:out:u32:32 --dump "out=$OUT/$e.bin" --engine "$e"
		assert_success
		[ "$e" = interp ] || assert_output --partial "engine: compiled"
		assert_output --partial "ERROR SUMMARY: 0 errors"
		run python3 -c 'import struct,sys; print(set(struct.unpack("<32I", open(sys.argv[1],"rb").read())))' "$OUT/$e.bin"
		assert_output "{7}"
	done
}
