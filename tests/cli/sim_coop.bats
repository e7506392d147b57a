#!/usr/bin/env bats
# Cooperative launches (tests/fixtures/sim/coop.cu): grid.sync() runs every CTA co-resident through the
# grid workspace; a grid larger than the residency limit is refused; thread-block tiles of 64 threads
# use reserved shared memory.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
}

@test "a grid.sync() reduction runs its CTAs co-resident and matches the reference; counts repeat" {
	run "$GPULAB" sim "$FX/coop.ptx" --kernel grid_sum --grid 12 --block 256 --arg buf:in:f32:10000:seq \
		--arg buf:partial:f32:12 --arg buf:out:f32:1 --arg i32:10000 --dump "out=$OUT/out.bin"
	assert_success
	assert_output --partial "simulated 12 of 12 CTAs on 1 CPU thread"
	assert_output --partial "co-resident (a cooperative launch: the kernel uses grid.sync()'s grid workspace)"
	assert_output --partial "ERROR SUMMARY: 0 errors"
	first=$(printf '%s\n' "$output" | grep '^smsp__inst_executed.sum')
	run python3 -c 'import struct, sys; print(struct.unpack("<f", open(sys.argv[1], "rb").read())[0])' "$OUT/out.bin"
	assert_output "49995000.0"
	run "$GPULAB" sim "$FX/coop.ptx" --kernel grid_sum --grid 12 --block 256 --arg buf:in:f32:10000:seq \
		--arg buf:partial:f32:12 --arg buf:out:f32:1 --arg i32:10000 --threads 2
	assert_success
	[ "$(printf '%s\n' "$output" | grep '^smsp__inst_executed.sum')" = "$first" ]
}

@test "two grid-wide phases with atomics between them match the reference" {
	python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<5000i", *[(i * 31 + 7) % 1000 for i in range(5000)]))' "$OUT/x.bin"
	run "$GPULAB" sim "$FX/coop.ptx" --kernel grid_rank --grid 20 --block 96 --arg "buf:x:i32:5000:file:$OUT/x.bin" \
		--arg buf:count:i32:13 --arg i32:5000 --arg i32:13 --dump "x=$OUT/xo.bin" --dump "count=$OUT/c.bin"
	assert_success
	assert_output --partial "ERROR SUMMARY: 0 errors"
	run python3 -c '
import struct, sys
x = [(i * 31 + 7) % 1000 for i in range(5000)]
o = struct.unpack("<5000i", open(sys.argv[1], "rb").read())
c = struct.unpack("<13i", open(sys.argv[2], "rb").read())
cnt = [sum(1 for v in x if v % 13 == b) for b in range(13)]
print(sum(a != cnt[v % 13] for a, v in zip(o, x)), sum(c))' "$OUT/xo.bin" "$OUT/c.bin"
	assert_output "0 0"
}

@test "a cooperative grid larger than the residency limit is refused with the limit named (exit 2)" {
	# 256 threads (8 warps) and 1024 + 1024 reserved bytes of shared memory: 64 / 8 = 8 CTAs per SM
	run "$GPULAB" sim "$FX/coop.ptx" --kernel grid_sum --grid 865 --block 256 --arg buf:in:f32:16:seq \
		--arg buf:partial:f32:865 --arg buf:out:f32:1 --arg i32:16
	[ "$status" -eq 2 ]
	assert_output --partial "kernel 'grid_sum' uses the grid workspace (cooperative_groups::this_grid(), grid.sync()), so its 865 CTAs must all be resident at once; the simulated device (an A100, sm_80) holds at most 864: 108 SMs x 8 CTAs of 256 threads and 1024 bytes of shared memory; launch a grid of at most 864 CTAs"
	run "$GPULAB" sim "$FX/coop.ptx" --kernel grid_sum --grid 864 --block 256 --arg buf:in:f32:16:seq \
		--arg buf:partial:f32:864 --arg buf:out:f32:1 --arg i32:16 --dump "out=$OUT/out.bin"
	assert_success
	run python3 -c 'import struct, sys; print(struct.unpack("<f", open(sys.argv[1], "rb").read())[0])' "$OUT/out.bin"
	assert_output "120.0"
}

@test "cg::tiled_partition<64>: tile.sync and tile.shfl across two warps through reserved shared memory" {
	run "$GPULAB" sim "$FX/coop.ptx" --kernel tile64_sum --grid 2 --block 128 --arg buf:in:i32:128:seq \
		--arg buf:out:i32:128 --dump "out=$OUT/out.bin"
	assert_success
	assert_output --partial "ERROR SUMMARY: 0 errors"
	run python3 -c '
import struct, sys
o = struct.unpack("<128i", open(sys.argv[1], "rb").read())
ref = [sum(range(t // 64 * 64, t // 64 * 64 + 64)) * 100 + t % 64 + t // 64 * 10000 for t in range(128)]
print(sum(a != b for a, b in zip(o, ref)), o[0], o[127])' "$OUT/out.bin"
	assert_output "0 201600 621263"
}
