#!/usr/bin/env bats
# Calls to device functions that nvcc did not inline (tests/fixtures/sim/calls.cu): recursion with lanes
# at different depths, a local array in every recursive frame, arguments and return values by the PTX
# ABI, function pointers whose target differs between lanes, and a stack overflow.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
}

ints() { # ints FILE N EXPR: N little-endian int32 values i -> EXPR
	python3 -c 'import struct, sys; n = int(sys.argv[2]); open(sys.argv[1], "wb").write(struct.pack("<%di" % n, *[eval(sys.argv[3]) for i in range(n)]))' "$@"
}

@test "recursive fibonacci: lanes of a warp recurse to different depths and match the reference" {
	ints "$OUT/in.bin" 64 '(i * 7) % 17'
	run "$GPULAB" sim "$FX/calls.ptx" --kernel fibonacci --grid 2 --block 32 --arg "buf:in:i32:64:file:$OUT/in.bin" \
		--arg buf:out:i32:64 --arg i32:60 --dump "out=$OUT/out.bin"
	assert_success
	assert_output --partial "ERROR SUMMARY: 0 errors"
	run python3 -c '
import struct, sys
o = struct.unpack("<64i", open(sys.argv[1], "rb").read())
def fib(n): return n if n < 2 else fib(n - 1) + fib(n - 2)
ref = [fib((i * 7) % 17) if i < 60 else 0 for i in range(64)]
print(sum(a != b for a, b in zip(o, ref)), o[5], o[16])' "$OUT/out.bin"
	assert_output "0 1 55"
}

@test "a local array in every recursive frame (%SP) stays the frame's own across the recursive call" {
	ints "$OUT/in.bin" 512 '(i * 37 + 11) % 101'
	run "$GPULAB" sim "$FX/calls.ptx" --kernel bins --grid 1 --block 64 --arg "buf:in:i32:512:file:$OUT/in.bin" \
		--arg buf:out:i32:64 --arg i32:64 --dump "out=$OUT/out.bin"
	assert_success
	assert_output --partial "ERROR SUMMARY: 0 errors"
	run python3 -c '
import struct, sys
o = struct.unpack("<64i", open(sys.argv[1], "rb").read())
v = [(i * 37 + 11) % 101 for i in range(512)]
def walk(at, n, depth):
    b = [0] * 8
    for i in range(n):
        b[v[at + i] & 7] += i + 1
    below = walk(at + 1, n - 1, depth - 1) if depth > 0 else 0
    return b[v[at] & 7] * 3 - below
ref = [walk(8 * i, 8, i % 4) for i in range(64)]
print(sum(a != b for a, b in zip(o, ref)), o[:4])' "$OUT/out.bin"
	assert_output "0 (3, 0, 15, 12)"
}

@test "arguments and a return value of a non-inlined call; its instructions are counted" {
	run "$GPULAB" sim "$FX/calls.ptx" --kernel saxpy_call --grid 1 --block 32 --arg f32:2 --arg buf:x:f32:32:seq \
		--arg buf:y:f32:32:seq --arg i32:32 --dump "y=$OUT/y.bin"
	assert_success
	run python3 -c 'import struct, sys; o = struct.unpack("<32f", open(sys.argv[1], "rb").read()); print(sum(o[i] != 3.0 * i for i in range(32)))' "$OUT/y.bin"
	assert_output "0"
	# the kernel runs 24 PTX instructions per thread (4 ld.param, 3 mov, mad, setp, bra, 2 cvta, mul, 2 add,
	# 2 ld.global, 3 st.param, call, ld.param, st.global, ret); the callee axpy1 runs 6 (3 ld.param, fma,
	# st.param, ret): 30 warp instructions, 30 x 32 thread instructions
	run "$GPULAB" sim "$FX/calls.ptx" --kernel saxpy_call --grid 1 --block 32 --arg f32:2 --arg buf:x:f32:32:seq \
		--arg buf:y:f32:32:seq --arg i32:32
	assert_success
	assert_line --regexp '^gpulab__ptx_inst_executed.sum +30 +inst$'
	assert_line --regexp '^gpulab__ptx_thread_inst_executed.sum +960 +inst$'
}

@test "function pointers: an indirect call whose target differs between the lanes of a warp" {
	run "$GPULAB" sim "$FX/calls.ptx" --kernel apply_ops --grid 2 --block 48 --arg buf:a:f32:96:seq \
		--arg buf:b:f32:96:rand:3 --arg buf:out:f32:96 --arg i32:90 --dump "a=$OUT/a.bin" --dump "b=$OUT/b.bin" \
		--dump "out=$OUT/out.bin"
	assert_success
	assert_output --partial "ERROR SUMMARY: 0 errors"
	run python3 -c '
import struct, sys
a, b, o = (struct.unpack("<96f", open(p, "rb").read()) for p in sys.argv[1:4])
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
ref = [(f32(a[i] + b[i]), f32(a[i] * b[i]), max(a[i], b[i]))[i % 3] if i < 90 else 0.0 for i in range(96)]
print(sum(x != y for x, y in zip(o, ref)))' "$OUT/a.bin" "$OUT/b.bin" "$OUT/out.bin"
	assert_output "0"
}

@test "factorial through a non-inlined call wraps as 32-bit int arithmetic does" {
	run "$GPULAB" sim "$FX/calls.ptx" --kernel factorial --grid 1 --block 32 --arg buf:in:i32:32:seq \
		--arg buf:out:i64:32 --arg i32:20 --dump "out=$OUT/out.bin"
	assert_success
	run python3 -c '
import struct, sys
o = struct.unpack("<32q", open(sys.argv[1], "rb").read())
def fact(n):
    r = 1
    for k in range(2, n + 1):
        r = (r * k) & 0xffffffff
    return r - (1 << 32) if r >= 1 << 31 else r
print(sum(o[i] != (fact(i) if i < 20 else 0) for i in range(32)), o[12], o[13])' "$OUT/out.bin"
	assert_output "0 479001600 1932053504"
}

@test "unbounded recursion is a stack-overflow finding against the 1 KiB stack; --stack-size moves the limit" {
	run "$GPULAB" sim "$FX/calls.ptx" --kernel runaway --grid 1 --block 32 --arg buf:in:i32:32:seq --arg buf:out:i32:32
	assert_failure 1
	assert_output --partial "stack-overflow at PTX line"
	assert_output --partial "the call to _Z7foreverPKii at depth 65 needs 1040 bytes of call stack, more than the 1024 each thread has (CUDA's default cudaLimitStackSize"
	run "$GPULAB" sim "$FX/calls.ptx" --kernel runaway --grid 1 --block 32 --arg buf:in:i32:32:seq \
		--arg buf:out:i32:32 --stack-size 4096
	assert_failure 1
	assert_output --partial "at depth 257 needs 4112 bytes of call stack, more than the 4096 each thread has (--stack-size"
	# fib(20) nests 20 calls of 16 bytes each (fib(20) down to fib(1)): 304 bytes are too few, 320 enough
	ints "$OUT/in.bin" 1 '20'
	run "$GPULAB" sim "$FX/calls.ptx" --kernel fibonacci --grid 1 --block 1 --arg "buf:in:i32:1:file:$OUT/in.bin" \
		--arg buf:out:i32:1 --arg i32:1 --stack-size 304
	assert_failure 1
	assert_output --partial "at depth 20 needs 320 bytes"
	run "$GPULAB" sim "$FX/calls.ptx" --kernel fibonacci --grid 1 --block 1 --arg "buf:in:i32:1:file:$OUT/in.bin" \
		--arg buf:out:i32:1 --arg i32:1 --stack-size 320 --dump "out=$OUT/out.bin"
	assert_success
	run python3 -c 'import struct, sys; print(struct.unpack("<i", open(sys.argv[1], "rb").read())[0])' "$OUT/out.bin"
	assert_output "6765"
	run "$GPULAB" sim "$FX/calls.ptx" --kernel runaway --grid 1 --block 1 --arg buf:in:i32:1 --arg buf:out:i32:1 \
		--stack-size 8
	assert_failure 2
	assert_output --partial "stack-size"
}

@test "calls.cu compiled by nvcc: the stack overflow points at the CUDA line of the recursive call" {
	command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || skip "no nvcc"
	export XDG_CACHE_HOME="$OUT/cache"
	cp "$FX/calls.cu" "$OUT/calls.cu"
	run "$GPULAB" sim "$OUT/calls.cu" --kernel runaway --grid 1 --block 32 --arg buf:in:i32:32:seq \
		--arg buf:out:i32:32
	assert_failure 1
	assert_output --regexp "stack-overflow at .*calls.cu:66"
	run "$GPULAB" sim "$OUT/calls.cu" --kernel fibonacci --grid 1 --block 32 --arg buf:in:i32:32:seq \
		--arg buf:out:i32:32 --arg i32:20 --dump "out=$OUT/out.bin"
	assert_success
	run python3 -c 'import struct, sys; print(struct.unpack("<20i", open(sys.argv[1], "rb").read()[:80])[19])' "$OUT/out.bin"
	assert_output "4181"
}
