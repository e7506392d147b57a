#!/usr/bin/env bats
# gpulab sim on kernels written the way public CUDA code writes them: cooperative-groups partitions
# whose lanes pass different member masks (and the warp-sync findings for broken masks), warpSize,
# files where one function is unsupported, C++ template names, CUDA line numbers, the nvcc cache.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
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
