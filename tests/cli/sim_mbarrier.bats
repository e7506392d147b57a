#!/usr/bin/env bats
# mbarrier and cp.async.mbarrier.arrive (tests/fixtures/sim/mbarrier.cu): cuda::barrier double buffering
# with cuda::memcpy_async, a read before the barrier's wait (racecheck), and a producer/consumer handoff
# on try_wait.parity / test_wait.parity.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
}

@test "cuda::barrier double buffering with memcpy_async matches its reference" {
	run "$GPULAB" sim "$FX/mbarrier.ptx" --kernel tile_weighted_sum --grid 2 --block 128 \
		--arg buf:in:f32:1024:seq --arg buf:out:f32:256 --arg i32:4 --dump "out=$OUT/out.bin"
	assert_success
	assert_output --partial "ERROR SUMMARY: 0 errors"
	run python3 -c '
import struct, sys
o = struct.unpack("<256f", open(sys.argv[1], "rb").read())
ref = [sum(float(b * 512 + k * 128 + (t + 32) % 128) * (k + 1) for k in range(4)) for b in range(2) for t in range(128)]
bad = [i for i in range(256) if o[i] != ref[i]]
print(len(bad), o[0], o[255])' "$OUT/out.bin"
	assert_output "0 2880.0 7990.0"
}

@test "a read of another warp's memcpy_async data before the barrier's wait is a race" {
	run "$GPULAB" sim "$FX/mbarrier.ptx" --kernel read_before_wait --grid 1 --block 128 \
		--arg buf:in:f32:128:seq --arg buf:out:f32:128
	assert_failure 1
	assert_output --partial "read of cp.async data in flight"
}

@test "mbarrier try_wait.parity / test_wait.parity producer-consumer handoff matches its reference" {
	run "$GPULAB" sim "$FX/mbarrier.ptx" --kernel parity_handoff --grid 1 --block 96 \
		--arg buf:in:i32:160:seq --arg buf:out:i32:320 --arg i32:5 --dump "out=$OUT/out.bin"
	assert_success
	assert_output --partial "ERROR SUMMARY: 0 errors"
	run python3 -c '
import struct, sys
o = struct.unpack("<320i", open(sys.argv[1], "rb").read())
print(sum(1 for r in range(5) for t in range(32, 96) if o[r * 64 + t - 32] != (r * 32 + t % 32) * 3 + t), o[0], o[319])' "$OUT/out.bin"
	assert_output "0 32 572"
}
