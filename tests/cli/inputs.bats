#!/usr/bin/env bats
# Inputs refused clearly, each with exit 2 and a message that names the problem, and none of them
# touching the database: NUL bytes in sources, empty --grid/--block fields, const:V values that do not
# fit the buffer's type, file:PATH that is not a regular file.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
}

# saxpy ARGS...: `gpulab sim` of saxpy.ptx with a database, the remaining options from ARGS
saxpy_args=(--kernel _Z5saxpyifPKfPf --arg i32:32 --arg f32:2)

@test "a NUL byte in a .ptx is refused with its offset, wherever it is (also past 64 KiB)" {
	python3 - "$FX/saxpy.ptx" "$OUT" <<'PY'
import sys
src = open(sys.argv[1], 'rb').read()
padded = src + (b'// ' + b'x' * 76 + b'\n') * 900        # about 72 KiB of valid PTX comments
open(sys.argv[2] + '/early.ptx', 'wb').write(src[:10] + b'\0' + src[10:])
open(sys.argv[2] + '/late.ptx', 'wb').write(padded[:70000] + b'\0' + padded[70000:])
open(sys.argv[2] + '/last.ptx', 'wb').write(padded + b'\0')
open(sys.argv[2] + '/padded.ptx', 'wb').write(padded)
PY
	# without the NUL the padded file runs: the comments are fine
	run "$GPULAB" sim "$OUT/padded.ptx" "${saxpy_args[@]}" --grid 1 --block 32 --arg buf:x:f32:32 --arg buf:y:f32:32
	assert_success
	bad_input 2 "'$OUT/early.ptx' contains a NUL byte at offset 10: it is not PTX text" \
		sim "$OUT/early.ptx" "${saxpy_args[@]}" --grid 1 --block 32 --arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
	bad_input 2 "'$OUT/late.ptx' contains a NUL byte at offset 70000: it is not PTX text" \
		sim "$OUT/late.ptx" "${saxpy_args[@]}" --grid 1 --block 32 --arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
	size=$(($(stat -c %s "$OUT/last.ptx") - 1))
	bad_input 2 "'$OUT/last.ptx' contains a NUL byte at offset $size: it is not PTX text" \
		sim "$OUT/last.ptx" "${saxpy_args[@]}" --grid 1 --block 32 --arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
}

@test "a NUL byte in a .cu is refused before nvcc sees it" {
	printf '__global__ void k(int *p) { p[0] = 1; }\n\0// hidden\n' >"$OUT/k.cu"
	GPULAB_NVCC=/nonexistent/nvcc bad_input 2 "'$OUT/k.cu' contains a NUL byte at offset 40: it is not CUDA text" \
		sim "$OUT/k.cu" --kernel k --grid 1 --block 1 --arg buf:p:i32:1 --db "$DB"
}

@test "--grid and --block with empty fields are refused" {
	local spec
	for spec in ',,5' '32,,2' ',,,32' '4,' ','; do
		bad_input 2 "--grid '$spec': dimension" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid "$spec" --block 32 \
			--arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
		bad_input 2 "--block '$spec': dimension" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block "$spec" \
			--arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
	done
	bad_input 2 "--grid ',,5': dimension 1 is empty" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid ,,5 --block 32 \
		--arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
	bad_input 2 "--block '32,,2': dimension 2 is empty" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 \
		--block 32,,2 --arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
	bad_input 2 "at most three dimensions" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1,1,1,1 --block 32 \
		--arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
	# full fields still work
	run "$GPULAB" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1,1,1 --block 32,1 --arg buf:x:f32:32 \
		--arg buf:y:f32:32 --json
	assert_success
	[ "$(jq -c .block <<<"$output")" = "[32,1,1]" ]
}

# const_refused DTYPE VALUE WHY: buffer x of DTYPE with const:VALUE is refused with "VALUE WHY"
const_refused() {
	bad_input 2 "buffer 'x' const: $2 $3" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block 32 \
		--arg "buf:x:$1:64:const:$2" --arg buf:y:f32:32 --db "$DB"
}

@test "const:V is checked against the buffer's type" {
	const_refused i32 99999999999999 "does not fit in i32 (-2147483648 to 2147483647)"
	const_refused i32 -2147483649 "does not fit in i32"
	const_refused u8 256 "does not fit in u8 (0 to 255)"
	const_refused i8 -129 "does not fit in i8 (-128 to 127)"
	const_refused u16 65536 "does not fit in u16 (0 to 65535)"
	const_refused u32 4294967296 "does not fit in u32 (0 to 4294967295)"
	const_refused i64 99999999999999999999 "does not fit in 64 bits"
	const_refused f16 70000 "is out of the range of f16 (it would become infinity)"
	const_refused f16 1e-9 "is too small for f16 (it would become 0)"
	const_refused bf16 1e39 "is out of the range of bf16"
	const_refused f32 1e39 "is out of the range of f32"
	const_refused f64 1e309 "is out of the range of f64"
	bad_input 2 "buffer 'x' const: '-1' is negative" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block 32 \
		--arg buf:x:u32:64:const:-1 --arg buf:y:f32:32 --db "$DB"
	# values that fit are kept exactly, up to the largest of each type
	run "$GPULAB" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block 32 --arg buf:x:f32:32:const:1.5 \
		--arg buf:y:i32:32:const:2147483647 --dump "y=$OUT/y.bin" --dump "x=$OUT/x.bin"
	assert_success
	python3 -c 'import struct,sys; x=struct.unpack("<32f", open(sys.argv[1],"rb").read()); assert set(x) == {1.5}, x' "$OUT/x.bin"
	run "$GPULAB" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block 1 --arg buf:x:f16:64:const:65504 \
		--arg buf:y:u8:64:const:255 --dump "x=$OUT/h.bin" --dump "y=$OUT/b.bin"
	assert_success
	python3 -c 'import struct,sys; h=struct.unpack("<64e", open(sys.argv[1],"rb").read()); assert set(h) == {65504.0}, h' "$OUT/h.bin"
	python3 -c 'import sys; b=open(sys.argv[1],"rb").read(); assert b == bytes([255]) * 64, b' "$OUT/b.bin"
}

@test "scalar f32:V that overflows is refused" {
	bad_input 2 "--arg f32:1e39: 1e39 is out of the range of f32" sim "$FX/saxpy.ptx" --kernel _Z5saxpyifPKfPf \
		--arg i32:32 --arg f32:1e39 --grid 1 --block 32 --arg buf:x:f32:32 --arg buf:y:f32:32 --db "$DB"
}

@test "file:PATH on a directory or a special file is refused with the real reason" {
	mkdir "$OUT/adir"
	mkfifo "$OUT/fifo"
	bad_input 2 "buffer 'x': '$OUT/adir' is a directory" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block 32 \
		--arg "buf:x:f32:32:file:$OUT/adir" --arg buf:y:f32:32 --db "$DB"
	bad_input 2 "buffer 'x': '/dev/zero' is not a regular file (a character device)" sim "$FX/saxpy.ptx" \
		"${saxpy_args[@]}" --grid 1 --block 32 --arg buf:x:f32:32:file:/dev/zero --arg buf:y:f32:32 --db "$DB"
	# a pipe would block the read forever; it is refused without opening it
	run timeout 10 "$GPULAB" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block 32 \
		--arg "buf:x:f32:32:file:$OUT/fifo" --arg buf:y:f32:32
	assert_failure 2
	assert_output --partial "'$OUT/fifo' is not a regular file (a pipe)"
	bad_input 2 "cannot read '$OUT/missing': No such file or directory" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" \
		--grid 1 --block 32 --arg "buf:x:f32:32:file:$OUT/missing" --arg buf:y:f32:32 --db "$DB"
}

@test "a .ptx SOURCE that is a device or a directory is refused" {
	bad_input 2 "is a directory" sim "$FX" "${saxpy_args[@]}" --grid 1 --block 32 --db "$DB"
}

@test "sim --db on a file that is not gpulab's is refused before the kernel runs" {
	echo "notes" >"$OUT/notes.db"
	before=$(sha256sum "$OUT/notes.db")
	run --separate-stderr "$GPULAB" sim "$FX/saxpy.ptx" "${saxpy_args[@]}" --grid 1 --block 32 --arg buf:x:f32:32 \
		--arg buf:y:f32:32 --db "$OUT/notes.db"
	assert_failure 3
	[ -z "$output" ] # nothing ran, nothing printed
	[[ "$stderr" == *"$OUT/notes.db is not a SQLite database"* ]]
	[ "$(sha256sum "$OUT/notes.db")" = "$before" ]
}
