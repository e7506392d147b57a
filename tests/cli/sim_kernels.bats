#!/usr/bin/env bats
# gpulab sim on kernels written the way public CUDA code writes them: cooperative-groups partitions
# whose lanes pass different member masks (and the warp-sync findings for broken masks), warpSize,
# files where one function is unsupported, C++ template names, CUDA line numbers, the nvcc cache.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
}

# A stand-in nvcc: logs each compile to $OUT/nvcc.log, writes the PTX named by FAKE_PTX, and a make-style
# dependency list with the source and the files it #includes "like this" (as nvcc -MD does).
fake_nvcc() {
	cat >"$OUT/nvcc" <<'EOF2'
#!/bin/bash
if [ "$1" = --version ]; then echo "fake nvcc, release 0.1"; exit 0; fi
echo "$*" >>"$FAKE_LOG"
out= dep= src=
while [ $# -gt 0 ]; do
	case $1 in -o) out=$2; shift ;; -MF) dep=$2; shift ;; *.cu) src=$1 ;; esac
	shift
done
incs=$(sed -n 's/^#include "\(.*\)"/\1/p' "$src" | sed "s|^|$(dirname "$src")/|")
cp "$FAKE_PTX" "$out"
printf '%s : %s %s\n' "$out" "$src" "$incs" >"$dep"
EOF2
	chmod +x "$OUT/nvcc"
	export GPULAB_NVCC="$OUT/nvcc" FAKE_LOG="$OUT/nvcc.log" FAKE_PTX="$FX/multi.ptx"
}

have_nvcc() {
	command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]
}

# ints FILE: the little-endian i32 values of a dump, one per line
ints() {
	python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); [print(v) for v in struct.unpack("<%di" % (len(d)//4), d)]' "$1"
}

@test "labeled_partition + cg::reduce: each label's group sums its own lanes (aggregated atomics)" {
	python3 - "$OUT" <<'EOF2'
import struct, sys
keys = [(t * 7 + t // 5) % 4 for t in range(64)]
vals = [(t * 13) % 50 for t in range(64)]
open(sys.argv[1] + "/keys.bin", "wb").write(struct.pack("<64i", *keys))
open(sys.argv[1] + "/vals.bin", "wb").write(struct.pack("<64i", *vals))
EOF2
	run --separate-stderr "$GPULAB" sim "$FX/cgroups.ptx" --kernel label_sum --grid 2 --block 32 \
		--arg "buf:keys:i32:64:file:$OUT/keys.bin" --arg "buf:vals:i32:64:file:$OUT/vals.bin" \
		--arg buf:sums:i32:4 --arg buf:sizes:i32:64 --arg buf:ranks:i32:64 \
		--dump "sums=$OUT/sums.bin" --dump "sizes=$OUT/sizes.bin" --json
	assert_success
	[ "$(jq '.sanitizer | length' <<<"$output")" = 0 ]
	got=$(ints "$OUT/sums.bin" | paste -sd,)
	want=$(python3 -c '
keys = [(t * 7 + t // 5) % 4 for t in range(64)]
vals = [(t * 13) % 50 for t in range(64)]
print(",".join(str(sum(v for k, v in zip(keys, vals) if k == j)) for j in range(4)))')
	[ "$got" = "$want" ]
	got=$(ints "$OUT/sizes.bin" | paste -sd,)
	want=$(python3 -c '
keys = [(t * 7 + t // 5) % 4 for t in range(64)]
print(",".join(str(sum(1 for k in range(t // 32 * 32, t // 32 * 32 + 32) if keys[k] == keys[t])) for t in range(64)))')
	[ "$got" = "$want" ]
}

@test "a member mask without the calling lane is a warp-sync error, exit 1" {
	run --separate-stderr "$GPULAB" sim "$FX/cgroups.ptx" --kernel bad_mask --grid 1 --block 32 \
		--arg buf:vals:i32:32:seq --arg buf:out:i32:32
	[ "$status" -eq 1 ]
	[[ "$output" == *"Warp synchronization error detected"* ]]
	[[ "$output" == *"does not include the thread's own lane"* ]]
}

@test "a lane named in the mask that never executes the collective is a warp-sync error, exit 1" {
	run --separate-stderr "$GPULAB" sim "$FX/cgroups.ptx" --kernel absent_member --grid 1 --block 32 \
		--arg buf:vals:i32:32:seq --arg buf:out:i32:32 --json
	[ "$status" -eq 1 ]
	[ "$(jq -r '.sanitizer[0].kind' <<<"$output")" = warp-sync ]
	[[ "$(jq -r '.sanitizer[0].message' <<<"$output")" == *"names lane 16"*"does not execute this instruction"* ]]
}

@test "warpSize (WARP_SZ) is 32: a warp-per-row softmax matches python's" {
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel softmax_rows --grid 2 --block 64 \
		--arg buf:in:f32:300:rand:7 --arg buf:out:f32:300 --arg i32:3 --arg i32:100 \
		--dump "in=$OUT/in.bin" --dump "out=$OUT/out.bin" --json
	assert_success
	[ "$(jq '.sanitizer | length' <<<"$output")" = 0 ]
	python3 - "$OUT/in.bin" "$OUT/out.bin" <<'EOF2'
import math, struct, sys
x = struct.unpack("<300f", open(sys.argv[1], "rb").read())
y = struct.unpack("<300f", open(sys.argv[2], "rb").read())
for r in range(3):
    row = x[100 * r:100 * r + 100]
    m = max(row)
    s = sum(math.exp(v - m) for v in row)
    for i, v in enumerate(row):
        want = math.exp(v - m) / s
        assert abs(y[100 * r + i] - want) <= 1e-6 + 1e-5 * want, (r, i, y[100 * r + i], want)
EOF2
}

@test "one unsupported kernel does not stop the others in its file; it is refused naming the instruction" {
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel copy_n --grid 1 --block 32 \
		--arg buf:in:f32:32:seq --arg buf:out:f32:32 --arg i32:32
	assert_success
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel wmma_tile --grid 1 --block 32 \
		--arg buf:a:f16:256 --arg buf:b:f16:256 --arg buf:c:f32:256
	assert_success
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel stop_here --grid 1 --block 32 --arg buf:c:f32:32
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"kernel 'stop_here' cannot run: "*"multi.ptx:"*"unsupported instruction 'brkpt'"* ]]
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel stop_via_helper --grid 1 --block 32 \
		--arg buf:c:f32:32
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"kernel 'stop_via_helper' calls '_Z9halt_callPf', which cannot run: "*"multi.ptx:"*"brkpt"* ]]
	# the texture fetches of the same file run (docs/sim.md, "Textures and surfaces")
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel via_helper --grid 1 --block 32 \
		--arg tex:t:f32:32:mem:seq --arg buf:c:f32:32
	assert_success
}

@test "C++ template names: MatrixMulCUDA<16>, reduce<float, 256>, c++filt's signature; ambiguity lists the candidates" {
	# the CUDA samples' matrixMul: C = A * B with A 32x32 and B 32x48, all ones in A, B[i] = i % 7
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel 'MatrixMulCUDA<16>' --grid 3,2 --block 16,16 \
		--arg buf:C:f32:1536 --arg buf:A:f32:1024:const:1 --arg buf:B:f32:1536:seq --arg i32:32 --arg i32:48 \
		--dump "C=$OUT/c.bin" --json
	assert_success
	[ "$(jq -r .kernel <<<"$output")" = _Z13MatrixMulCUDAILi16EEvPfS0_S0_ii ]
	python3 - "$OUT/c.bin" <<'EOF2'
import struct, sys
c = struct.unpack("<1536f", open(sys.argv[1], "rb").read())
for i in range(32):
    for j in range(48):
        want = sum(float(k * 48 + j) for k in range(32))
        assert c[i * 48 + j] == want, (i, j, c[i * 48 + j], want)
EOF2
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel 'reduce<float, 256>' --grid 4 --block 256 \
		--arg buf:in:f32:1000:const:0.5 --arg buf:out:f32:4 --arg i32:1000 --dump "out=$OUT/r.bin" --json
	assert_success
	[ "$(jq -r .kernel <<<"$output")" = _ZN3lab6reduceIfLi256EEEvPKT_PS1_i ]
	[ "$(python3 -c 'import struct,sys; print(struct.unpack("<4f", open(sys.argv[1],"rb").read()))' "$OUT/r.bin")" = "(128.0, 128.0, 128.0, 116.0)" ]
	for name in 'lab::reduce<int,128>' 'void lab::reduce<int, 128>(int const*, int*, int)' 'reduce<int, 128>'; do
		run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel "$name" --grid 1 --block 128 \
			--arg buf:in:i32:100:seq --arg buf:out:i32:1 --arg i32:100 --json
		assert_success
		[ "$(jq -r .kernel <<<"$output")" = _ZN3lab6reduceIiLi128EEEvPKT_PS1_i ]
	done
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel MatrixMulCUDA --grid 1 --block 1
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"kernel name 'MatrixMulCUDA' is ambiguous"*"_Z13MatrixMulCUDAILi16EEvPfS0_S0_ii (MatrixMulCUDA<16>(float*, float*, float*, int, int))"*"(MatrixMulCUDA<8>("* ]]
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel 'reduce<float, 128>' --grid 1 --block 1
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no kernel named 'reduce<float, 128>'"*"did you mean"* ]]
}

@test ".cu input: findings and refusals name the CUDA file and line, not the temporary PTX" {
	have_nvcc || skip "no nvcc here"
	cp "$FX/multi.cu" "$OUT/multi.cu"
	line=$(grep -n 'out\[i\] = in\[i\];' "$OUT/multi.cu" | cut -d: -f1)
	run --separate-stderr "$GPULAB" sim "$OUT/multi.cu" --kernel copy_n --grid 1 --block 64 \
		--arg buf:in:f32:40 --arg buf:out:f32:64 --arg i32:64
	[ "$status" -eq 1 ]
	[[ "$output" == *"Invalid __global__ read of size 4 bytes at $OUT/multi.cu:$line (PTX line "*") in block (0,0,0) thread (40,0,0)"* ]]
	run --separate-stderr "$GPULAB" sim "$OUT/multi.cu" --kernel copy_n --grid 1 --block 64 \
		--arg buf:in:f32:40 --arg buf:out:f32:64 --arg i32:64 --json
	[ "$(jq -r '.sanitizer[0].cuda_file' <<<"$output")" = "$OUT/multi.cu" ]
	[ "$(jq -r '.sanitizer[0].cuda_line' <<<"$output")" = "$line" ]
	hline=$(grep -n 'halt_inline(c);' "$OUT/multi.cu" | cut -d: -f1)
	iline=$(grep -n 'asm volatile("brkpt;");' "$OUT/multi.cu" | sed -n 2p | cut -d: -f1)
	run --separate-stderr "$GPULAB" sim "$OUT/multi.cu" --kernel stop_inlined --grid 1 --block 32 \
		--arg buf:c:f32:32
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"kernel 'stop_inlined' cannot run: $OUT/multi.cu:$hline: unsupported instruction 'brkpt' (in $OUT/multi.cu:$iline, inlined here; nvcc's PTX line "* ]]
	bline=$(grep -n 'asm volatile("brkpt;");' "$OUT/multi.cu" | head -1 | cut -d: -f1)
	run --separate-stderr "$GPULAB" sim "$OUT/multi.cu" --kernel stop_here --grid 1 --block 32 --arg buf:c:f32:32
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"kernel 'stop_here' cannot run: $OUT/multi.cu:$bline: unsupported instruction 'brkpt'"* ]]
}

@test "nvcc once: the second run of a .cu file takes its PTX from the cache; a changed header, flag or arch runs nvcc again" {
	fake_nvcc
	printf '#define N 32\n' >"$OUT/size.h"
	printf '#include "size.h"\n__global__ void k() {}\n' >"$OUT/k.cu"
	args=(--kernel copy_n --grid 1 --block 32 --arg buf:in:f32:32 --arg buf:out:f32:32 --arg i32:32 --verbose)
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}"
	assert_success
	[[ "$stderr" == *"nvcc cache: miss"* ]]
	[[ "$stderr" == *"nvcc cache: stored $XDG_CACHE_HOME/gpulab/ptx/"*".ptx (2 files checked on reuse)"* ]]
	[ "$(wc -l <"$OUT/nvcc.log")" -eq 1 ]
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}"
	assert_success
	[[ "$stderr" == *"nvcc cache: hit $XDG_CACHE_HOME/gpulab/ptx/"* ]]
	[ "$(wc -l <"$OUT/nvcc.log")" -eq 1 ]
	# touched but unchanged: still a hit (the content is compared)
	touch -d '2001-01-01' "$OUT/size.h"
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}"
	[[ "$stderr" == *"nvcc cache: hit"* ]]
	# the included header changes: nvcc runs again
	printf '#define N 64\n' >"$OUT/size.h"
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}"
	assert_success
	[[ "$stderr" == *"nvcc cache: miss"* ]]
	[ "$(wc -l <"$OUT/nvcc.log")" -eq 2 ]
	# -D, -I and --arch reach nvcc in order, and each is part of the key
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}" -D N=16 -I "$OUT/inc" --arch sm_90
	assert_success
	[[ "$stderr" == *"nvcc cache: miss"* ]]
	[ "$(tail -1 "$OUT/nvcc.log")" = "-ptx -arch=sm_90 -O3 -lineinfo -D N=16 -I $OUT/inc $OUT/k.cu -o $(sed 's/.*-o //; s/ .*//' <<<"$(tail -1 "$OUT/nvcc.log")") -MD -MF $(sed 's/.*-MF //' <<<"$(tail -1 "$OUT/nvcc.log")")" ]
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}" -D N=16 -I "$OUT/inc" --arch sm_90
	[[ "$stderr" == *"nvcc cache: hit"* ]]
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}" --no-cache
	[[ "$stderr" == *"nvcc cache: off (--no-cache)"* ]]
	[ "$(wc -l <"$OUT/nvcc.log")" -eq 4 ]
	# the source itself changes
	printf '#include "size.h"\n__global__ void k2() {}\n' >"$OUT/k.cu"
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" "${args[@]}"
	[[ "$stderr" == *"nvcc cache: miss"* ]]
	[ "$(wc -l <"$OUT/nvcc.log")" -eq 5 ]
}

@test "nvcc runs under a time limit: a hung nvcc is stopped with its children, exit 3" {
	cat >"$OUT/slow-nvcc" <<'EOF2'
#!/bin/bash
if [ "$1" = --version ]; then echo "slow nvcc"; exit 0; fi
sleep 60 &
echo $! >"$SLOW_CHILD"
wait
EOF2
	chmod +x "$OUT/slow-nvcc"
	printf '__global__ void k() {}\n' >"$OUT/k.cu"
	export GPULAB_NVCC="$OUT/slow-nvcc" GPULAB_NVCC_TIMEOUT=1 SLOW_CHILD="$OUT/child.pid"
	start=$(date +%s)
	run --separate-stderr "$GPULAB" sim "$OUT/k.cu" --kernel k --grid 1 --block 1
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"nvcc did not finish within 1 s and was stopped; set GPULAB_NVCC_TIMEOUT"* ]]
	[ $(($(date +%s) - start)) -lt 10 ]
	sleep 0.2
	# nvcc's child was killed with it: gone, or a zombie nobody has reaped yet (PID 1 in a container)
	pid=$(cat "$OUT/child.pid")
	if [ -e "/proc/$pid/stat" ]; then
		[ "$(cut -d' ' -f3 "/proc/$pid/stat")" = Z ]
	fi
}

@test "--arch, -I and -D are checked" {
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel copy_n --grid 1 --block 1 --arch 80
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--arch '80': expected sm_XX such as sm_80 or sm_90a"* ]]
	run --separate-stderr "$GPULAB" sim "$FX/multi.ptx" --kernel copy_n --grid 1 --block 1 -I -x
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"-I needs a directory, not '-x'"* ]]
}

@test "real nvcc: a second run is served from the cache; -D and a changed header change the result" {
	have_nvcc || skip "no nvcc here"
	unset GPULAB_NVCC
	mkdir -p "$OUT/inc"
	printf '#define SCALE 3\n' >"$OUT/inc/scale.h"
	cat >"$OUT/scale.cu" <<'EOF2'
#include "scale.h"
#ifndef OFFSET
#define OFFSET 0
#endif
extern "C" __global__ void scale(int *x) { x[threadIdx.x] = x[threadIdx.x] * SCALE + OFFSET; }
EOF2
	args=(--kernel scale --grid 1 --block 4 --arg buf:x:i32:4:seq --dump "x=$OUT/x.bin" -I "$OUT/inc" --verbose)
	run --separate-stderr "$GPULAB" sim "$OUT/scale.cu" "${args[@]}"
	assert_success
	[[ "$stderr" == *"nvcc cache: miss; nvcc took"* ]]
	[ "$(ints "$OUT/x.bin" | paste -sd,)" = "0,3,6,9" ]
	run --separate-stderr "$GPULAB" sim "$OUT/scale.cu" "${args[@]}"
	[[ "$stderr" == *"nvcc cache: hit"* ]]
	[ "$(ints "$OUT/x.bin" | paste -sd,)" = "0,3,6,9" ]
	run --separate-stderr "$GPULAB" sim "$OUT/scale.cu" "${args[@]}" -D OFFSET=100
	[[ "$stderr" == *"nvcc cache: miss"* ]]
	[ "$(ints "$OUT/x.bin" | paste -sd,)" = "100,103,106,109" ]
	printf '#define SCALE 5\n' >"$OUT/inc/scale.h"
	run --separate-stderr "$GPULAB" sim "$OUT/scale.cu" "${args[@]}"
	[[ "$stderr" == *"nvcc cache: miss"* ]]
	[ "$(ints "$OUT/x.bin" | paste -sd,)" = "0,5,10,15" ]
}

@test "a consumer warp spinning on a flag its CTA's producer warp sets finishes (fair warp scheduling)" {
	run --separate-stderr "$GPULAB" sim "$FX/spin.ptx" --kernel handoff --grid 2 --block 64 \
		--arg buf:in:i32:160:seq --arg buf:out:i32:160 --arg i32:5 --dump "out=$OUT/out.bin" --json
	assert_success
	[ "$(jq '.sanitizer | length' <<<"$output")" = 0 ]
	[ "$(ints "$OUT/out.bin" | paste -sd,)" = "$(python3 -c 'print(",".join(str(2 * i + 1) for i in range(160)))')" ]
	first=$(jq '.metrics["smsp__inst_executed.sum"]' <<<"$output")
	run --separate-stderr "$GPULAB" sim "$FX/spin.ptx" --kernel handoff --grid 2 --block 64 \
		--arg buf:in:i32:160:seq --arg buf:out:i32:160 --arg i32:5 --json --threads 1
	[ "$(jq '.metrics["smsp__inst_executed.sum"]' <<<"$output")" = "$first" ]
}
