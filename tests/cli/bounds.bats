#!/usr/bin/env bats
# Launches that ask for more than a machine has stay bounded: huge grids stream through the workers
# (memory does not grow with the grid), a launch that cannot fit is refused before it starts, device
# printf keeps a fixed-size buffer and formats with gpulab's own conversions, out of memory is exit 3
# with one clear line, and a launch stopped by the instruction budget reports the same for any --threads.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
}

# The launch's counts and findings without what depends on the host (time, worker count).
stable_json() {
	jq -S 'del(.sim.wall_seconds, .sim.threads)' <<<"$1"
}

@test "--grid 2147483647 streams: memory stays flat until Ctrl-C (SIGINT) stops it" {
	run bash -c "ulimit -v 2000000; timeout -s INT 3 '$GPULAB' sim '$FX/bounds.ptx' --kernel trivial \
		--grid 2147483647 --block 32 --arg buf:out:i32:1"
	[ "$status" -eq 124 ] # still running after 3 s: neither aborted (134) nor out of memory (3)
	refute_output --partial "out of memory"
	refute_output --partial "Aborted"
}

@test "--grid 2147483647 under a memory limit stops at the first CTA the budget stops, in grid order" {
	run --separate-stderr bash -c "ulimit -v 2000000; timeout 120 '$GPULAB' sim '$FX/bounds.ptx' --kernel stuck_from \
		--grid 2147483647 --block 64 --arg i32:5 --arg i32:50 --arg buf:flag:i32:1 --arg buf:out:i32:1024 \
		--max-instructions 20000"
	[ "$status" -eq 1 ]
	assert_output --partial "simulated 6 of 2147483647 CTAs"
	assert_output --partial "CTA 5, the first in grid order to abort, stopped the launch"
	assert_output --partial "instruction budget of 20000 warp instructions per launch exhausted"
	assert_output --partial "in block (5,0,0)"
}

@test "a launch stopped by the budget reports the same counts and CTA for --threads 1 and 2" {
	# CTA 0 finishes quickly, every later CTA spins: with two workers CTA 2 starts while CTA 1 spins, and
	# must not count
	local args=(sim "$FX/bounds.ptx" --kernel stuck_from --grid 64 --block 64 --arg i32:1 --arg i32:100
		--arg buf:flag:i32:1 --arg buf:out:i32:4096 --max-instructions 200000 --json)
	run --separate-stderr "$GPULAB" "${args[@]}" --threads 1
	[ "$status" -eq 1 ]
	local one="$output"
	[ "$(jq .sim.aborted_cta <<<"$one")" -eq 1 ]
	[ "$(jq .sim.ctas <<<"$one")" -eq 2 ]
	[ "$(jq '.sanitizer | length' <<<"$one")" -eq 1 ]
	[ "$(jq -r '.sanitizer[0].kind' <<<"$one")" = budget ]
	[ "$(jq -c '.sanitizer[0].block' <<<"$one")" = "[1,0,0]" ]
	for i in 1 2 3; do
		run --separate-stderr "$GPULAB" "${args[@]}" --threads 2
		[ "$status" -eq 1 ]
		[ "$(stable_json "$output")" = "$(stable_json "$one")" ]
	done
}

@test "a launch whose CTA state cannot fit in the memory gpulab allows itself is refused with exit 2" {
	cat >"$OUT/big_local.ptx" <<'EOF'
.version 8.0
.target sm_80
.address_size 64

.visible .entry big_local(.param .u64 out)
{
	.local .align 4 .b8 scratch[524288];
	.reg .b32 %r<2>;
	mov.u32 %r1, 1;
	st.local.u32 [scratch], %r1;
	ret;
}
EOF
	run "$GPULAB" sim "$OUT/big_local.ptx" --kernel big_local --grid 256 --block 1024 --arg buf:out:i32:1 --threads 256
	[ "$status" -eq 2 ]
	# 256 workers x (1024 threads x 512 KiB of local memory) = 128 GiB, beyond half of any machine this runs on
	assert_output --partial "256 workers x 512.6 MiB of CTA state of which 512.0 MiB is local memory of 1024 threads"
	assert_output --partial "needs 128.2 GiB of host memory; gpulab allows itself"
	assert_output --partial "(half of this machine's memory)"
}

@test "printf(\"%1000000000d\") finishes at once with bounded output and one line counting the dropped records" {
	SECONDS=0
	run --separate-stderr bash -c "'$GPULAB' sim '$FX/bounds.ptx' --kernel wide --grid 64 --block 1024 --arg i32:7 \
		| wc -c"
	[ "$status" -eq 0 ]
	# unbounded, 65,536 records of a billion characters would take hours; bounded it is well under a
	# second on an idle machine (a generous limit: the machine running the tests may be busy)
	[ "$SECONDS" -le 60 ]
	[ "$output" -lt 20000 ]
	run "$GPULAB" sim "$FX/bounds.ptx" --kernel wide --grid 64 --block 1024 --arg i32:7
	assert_success
	assert_output --partial "65536 printf records dropped: buffer of 1048576 bytes full; use --printf-buffer"
	refute_output --partial "device printf output:"
}

@test "--printf-buffer: the records that fit, in grid order, and the same for any --threads" {
	# 100 CTAs x 32 threads, each printing 1001 bytes: 9 records fit in 10000 bytes
	run --separate-stderr "$GPULAB" sim "$FX/bounds.ptx" --kernel lines --grid 100 --block 32 --arg i32:1000 \
		--printf-buffer 10000 --json --threads 1
	assert_success
	local one="$output"
	[ "$(jq .printf_dropped <<<"$one")" -eq 3191 ]
	[ "$(jq .printf_buffer <<<"$one")" -eq 10000 ]
	[ "$(jq -j .printf <<<"$one" | wc -l)" -eq 9 ]
	[ "$(jq -j .printf <<<"$one" | sed -n 9p)" = "$(printf '%01000d' 8)" ]
	[ "$stderr" = "3191 printf records dropped: buffer of 10000 bytes full; use --printf-buffer" ]
	run --separate-stderr "$GPULAB" sim "$FX/bounds.ptx" --kernel lines --grid 100 --block 32 --arg i32:1000 \
		--printf-buffer 10000 --json --threads 2
	[ "$(stable_json "$output")" = "$(stable_json "$one")" ]
	# a big enough buffer keeps everything
	run --separate-stderr "$GPULAB" sim "$FX/bounds.ptx" --kernel lines --grid 100 --block 32 --arg i32:10 \
		--printf-buffer 35200 --json
	[ "$(jq .printf_dropped <<<"$output")" -eq 0 ]
	[ "$(jq -j .printf <<<"$output" | wc -l)" -eq 3200 ]
}

@test "--printf-buffer is checked, on sim and run" {
	run "$GPULAB" sim "$FX/bounds.ptx" --kernel lines --grid 1 --block 1 --arg i32:1 --printf-buffer 0
	[ "$status" -eq 2 ]
	assert_output --partial "--printf-buffer 0 is out of range (expected 1 to 1073741824)"
	run "$GPULAB" sim "$FX/bounds.ptx" --kernel lines --grid 1 --block 1 --arg i32:1 --printf-buffer 2G
	[ "$status" -eq 2 ]
	assert_output --partial "invalid --printf-buffer '2G'"
	run "$GPULAB" run reduce --size 4096 --backend sim --printf-buffer 4096 --db "$DB"
	assert_success
	run "$GPULAB" run reduce --size 4096 --backend sim --printf-buffer -1 --db "$DB"
	[ "$status" -eq 2 ]
}

@test "%Lf is printed as written with a note, the same on every run; the host printf never sees the format" {
	run --separate-stderr "$GPULAB" sim "$FX/bounds.ptx" --kernel long_double --grid 1 --block 2 --arg f64:1.5
	assert_success
	local first="$output"
	assert_output --partial "device printf output:
%Lf|1.500000
%Lf|1.500000
note: 2 printf conversions not supported by device printf, printed as written (first: '%Lf'"
	for i in 1 2 3; do
		run --separate-stderr "$GPULAB" sim "$FX/bounds.ptx" --kernel long_double --grid 1 --block 2 --arg f64:1.5
		[ "$(grep -v 'CPU thread' <<<"$output")" = "$(grep -v 'CPU thread' <<<"$first")" ]
	done
}

@test "%s reads device memory with the sanitizer's checks; (null), (nil), precision, %n printed as written" {
	printf 'hello\0' >"$OUT/s.bin"
	run "$GPULAB" sim "$FX/bounds.ptx" --kernel strings --grid 1 --block 1 --arg buf:s:u8:6:file:"$OUT/s.bin" --arg i32:3
	assert_success
	assert_output --partial "[hello] [hel] [ab      ] [(null)] [(nil)] [%n]"
	# a string without its NUL runs off the end of the buffer: a finding, not a read of host memory
	run "$GPULAB" sim "$FX/bounds.ptx" --kernel strings --grid 1 --block 1 --arg buf:s:u8:16:const:65 --arg i32:3
	[ "$status" -eq 1 ]
	assert_output --partial "invalid __global__ read of size 1 at 0x7f0000000010: 0 bytes after the end of buffer 's'"
}

@test "out of memory is exit 3 with one clear line, no core dump, nothing stored" {
	run bash -c "ulimit -v 1000000; '$GPULAB' sim '$FX/bounds.ptx' --kernel trivial --grid 1 --block 32 \
		--arg buf:out:i32:500000000"
	[ "$status" -eq 3 ]
	assert_output --partial "out of memory: buffer 'out' (500000000 x i32) needs 1907.3 MiB of host memory"
	"$GPULAB" run transpose --size 32 --backend sim --db "$DB" >/dev/null
	run bash -c "ulimit -v 2500000; '$GPULAB' run transpose --size 20000 --backend sim --db '$DB'"
	[ "$status" -eq 3 ]
	assert_output --partial "out of memory: buffer"
	refute_output --partial "verification"
	[ "$("$GPULAB" query 'select count(*) from runs' --db "$DB" --csv | tail -1)" = 1 ]
}
