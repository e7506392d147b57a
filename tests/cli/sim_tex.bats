#!/usr/bin/env bats
# gpulab sim with texture and surface objects built on the command line (--arg tex:..., --arg surf:...):
# the kernels of tests/fixtures/sim/tex.cu against references computed here with Python's standard
# library, the counts, the findings of invalid handles and of .trap, and the spec's errors.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
}

@test "tex: tex2D<float4> with bilinear filtering of a texture built from --arg tex:" {
	run --separate-stderr "$GPULAB" sim "$FX/tex.ptx" --kernel tex2d_sample --grid 2,2 --block 8,4 \
		--arg tex:img:f32x4:8x4:linear:seq --arg buf:out:f32:512 --arg f32:-0.5 --arg f32:0.25 \
		--arg f32:0 --arg f32:0.5 --dump "out=$OUT/out.bin" --json
	assert_success
	[ "$(jq -r '.metrics["smsp__inst_executed_op_texture.sum"]' <<<"$output")" = 4 ]
	[ "$(jq -r '.metrics["l1tex__t_requests_pipe_tex_mem_texture_op_tex.sum"]' <<<"$output")" = 4 ]
	[ "$(jq -r '.errors' <<<"$output")" = 0 ]
	# texel (x, y) channel c holds 32 y + 4 x + c (seq): a ramp, so the filtered value is the ramp at the
	# clamped (u - 0.5, v - 0.5)
	python3 - "$OUT/out.bin" <<'EOF'
import struct, sys
d = struct.unpack("<512f", open(sys.argv[1], "rb").read())
for y in range(8):
    for x in range(16):
        u, v = -0.5 + 0.25 * x, 0.5 * y
        cx, cy = min(max(u - 0.5, 0.0), 7.0), min(max(v - 0.5, 0.0), 3.0)
        for c in range(4):
            assert d[4 * (16 * y + x) + c] == 32 * cy + 4 * cx + c, (x, y, c, d[4 * (16 * y + x) + c])
EOF
}

@test "tex: normalized coordinates with wrap, and 8-bit texels read as normalized floats" {
	run "$GPULAB" sim "$FX/tex.ptx" --kernel tex1d_float --grid 1 --block 16 \
		--arg tex:t:u8:4:point,wrap,norm,readnorm:seq --arg buf:out:f32:16 --arg f32:-1 --arg f32:0.25 \
		--dump "out=$OUT/out.bin"
	assert_success
	# x = -1 + i/4 wraps to frac(x), texel floor(4 frac(x)), which holds that index: read as index / 255
	run python3 -c '
import struct, sys
d = struct.unpack("<16f", open(sys.argv[1], "rb").read())
want = [struct.unpack("<f", struct.pack("<f", (i % 4) / 255))[0] for i in range(16)]
assert list(d) == want, (d, want)' "$OUT/out.bin"
	assert_success
}

@test "tex: tex1Dfetch of linear memory (mem) reads zeros outside it, counted as TLD" {
	run --separate-stderr "$GPULAB" sim "$FX/tex.ptx" --kernel tex1d_fetch --grid 1 --block 32 \
		--arg tex:t:i32:20:mem:seq --arg buf:out:i32:32 --arg i32:-4 --dump "out=$OUT/out.bin" --json
	assert_success
	[ "$(jq -r '.metrics["l1tex__t_requests_pipe_tex_mem_texture_op_ld.sum"]' <<<"$output")" = 1 ]
	run python3 -c '
import struct, sys
d = struct.unpack("<32i", open(sys.argv[1], "rb").read())
assert list(d) == [i - 4 if 0 <= i - 4 < 20 else 0 for i in range(32)], d' "$OUT/out.bin"
	assert_success
}

@test "surf: surf2Dread/surf2Dwrite copy between two surfaces; --dump writes the surface's texels" {
	run "$GPULAB" sim "$FX/tex.ptx" --kernel surf_copy --grid 1 --block 8,4 \
		--arg surf:src:f32x4:5x3:rand:7 --arg surf:dst:f32x4:5x3 --arg i32:5 --arg i32:3 \
		--dump "src=$OUT/src.bin" --dump "dst=$OUT/dst.bin"
	assert_success
	assert_output --regexp "smsp__inst_executed_op_surface_ld.sum +1 +inst"
	assert_output --regexp "smsp__inst_executed_op_surface_st.sum +1 +inst"
	cmp "$OUT/src.bin" "$OUT/dst.bin"
	[ "$(stat -c %s "$OUT/dst.bin")" -eq 240 ]
}

@test "surf: .clamp reads the nearest texel, .zero reads zero and drops stores outside" {
	run "$GPULAB" sim "$FX/tex.ptx" --kernel surf_modes --grid 1 --block 8 \
		--arg surf:s:i32:4x3:seq --arg buf:out:i32:16 --arg i32:-2 --arg i32:1 \
		--dump "out=$OUT/out.bin" --dump "s=$OUT/s.bin"
	assert_success
	run python3 -c '
import struct, sys
out = struct.unpack("<16i", open(sys.argv[1], "rb").read())
s = struct.unpack("<12i", open(sys.argv[2], "rb").read())
for i in range(8):
    x = i - 2
    assert out[2 * i] == 4 + min(max(x, 0), 3), (i, out)
    assert out[2 * i + 1] == (4 + x if 0 <= x < 4 else 0), (i, out)
assert list(s[8:]) == [1002, 1003, 1004, 1005] and list(s[:8]) == list(range(8)), s' "$OUT/out.bin" "$OUT/s.bin"
	assert_success
}

@test "surf: a .trap read outside the surface is an error naming the surface, exit 1" {
	run "$GPULAB" sim "$FX/tex.ptx" --kernel surf_trap --grid 1 --block 4 --arg surf:s:i32:4:mem:seq \
		--arg buf:out:i32:4 --arg i32:2
	[ "$status" -eq 1 ]
	assert_output --partial "Invalid surface read of size 4 bytes at PTX line"
	assert_output --partial "surface read of 4 bytes at x = 16 bytes, y = 0, z/layer = 0 is outside surface 1 (4 x 1 texels of 4 bytes)"
	assert_output --partial "ERROR SUMMARY: 2 errors"
	run --separate-stderr "$GPULAB" sim "$FX/tex.ptx" --kernel surf_trap --grid 1 --block 4 \
		--arg surf:s:i32:4:mem:seq --arg buf:out:i32:4 --arg i32:2 --json
	[ "$(jq -r '.sanitizer[0].space' <<<"$output")" = surface ]
	[ "$(jq -r '.sanitizer[0].tool' <<<"$output")" = memcheck ]
}

@test "a handle no object of the launch has is an invalid-texture error; a surface is not a texture" {
	run "$GPULAB" sim "$FX/tex.ptx" --kernel tex1d_float --grid 1 --block 4 --arg u64:99 --arg buf:out:f32:4 \
		--arg f32:0 --arg f32:1
	[ "$status" -eq 1 ]
	assert_output --partial "Invalid texture or surface object (handle 99)"
	assert_output --partial "tex: no texture object of this launch has the handle 99"
	run "$GPULAB" sim "$FX/tex.ptx" --kernel tex1d_float --grid 1 --block 4 --arg surf:s:f32:4 \
		--arg buf:out:f32:4 --arg f32:0 --arg f32:1
	[ "$status" -eq 1 ]
	assert_output --partial "tex: handle 1 is a surface object, not a texture object"
	run "$GPULAB" sim "$FX/tex.ptx" --kernel tex1d_float --grid 1 --block 4 --arg tex:t:f32:4x4 \
		--arg buf:out:f32:4 --arg f32:0 --arg f32:1
	[ "$status" -eq 1 ]
	assert_output --partial "tex.1d on texture 1, which is a 2D array"
	run "$GPULAB" sim "$FX/tex.ptx" --kernel tex1d_float --grid 1 --block 4 --arg u64:99 --arg buf:out:f32:4 \
		--arg f32:0 --arg f32:1 --tool racecheck
	assert_success # memcheck off: not reported, and the lanes still read zero
}

@test "bad tex: and surf: specs are refused with the reason, exit 2" {
	k=(--kernel tex1d_float --grid 1 --block 4)
	rest=(--arg buf:out:f32:4 --arg f32:0 --arg f32:1)
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f64:4 "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "FORMAT 'f64' is a channel type (u8, i8, u16, i16, u32, i32, f16, f32)"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f32x3:4 "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "FORMAT 'f32x3'"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f32:4x0 "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "DIMS '4x0' is W, WxH or WxHxD, each from 1 to 65536"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f32:4:bilinear "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "unknown option 'bilinear' (a texture takes point, linear, clamp"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg surf:s:f32:4:linear "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "unknown option 'linear' (a surface takes layers=N, cube, mem, pitch=BYTES)"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:u8:4:linear "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "linear filtering of u8 texels read as integers"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f32:4x4:mem "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "linear memory is one row of texels"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f32:4x2:cube "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "a cubemap's faces are square"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f32:4:linear:bogus "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "unknown INIT 'bogus'"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:t:f32 "${rest[@]}"
	[ "$status" -eq 2 ]
	assert_output --partial "a texture is tex:NAME:FORMAT:DIMS[:OPTIONS][:INIT]"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg u64:1 --arg buf:out:f32:4 --arg tex:t:f32:4 --arg f32:1
	[ "$status" -eq 2 ]
	assert_output --partial "parameter 3 (tex1d_float_param_2) of 'tex1d_float' is not a 64-bit integer"
	run "$GPULAB" sim "$FX/tex.ptx" "${k[@]}" --arg tex:out:f32:4 --arg buf:out:f32:4 --arg f32:0 --arg f32:1
	[ "$status" -eq 2 ]
	assert_output --partial "there is already a buffer named 'out'"
}

@test ".cu source: tex2D<float4> and surf2Dwrite compiled by nvcc" {
	have_nvcc() { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; }
	have_nvcc || skip "no nvcc here"
	unset GPULAB_NVCC
	cat >"$OUT/t.cu" <<'EOF'
extern "C" __global__ void shade(cudaTextureObject_t t, cudaSurfaceObject_t s)
{
	int x = threadIdx.x, y = threadIdx.y;
	float4 v = tex2D<float4>(t, x + 0.5f, y + 0.5f);
	surf2Dwrite(make_float4(v.w, v.z, v.y, v.x), s, x * 16, y);
}
EOF
	run "$GPULAB" sim "$OUT/t.cu" --kernel shade --grid 1 --block 4,2 --arg tex:t:f32x4:4x2:seq \
		--arg surf:s:f32x4:4x2 --dump "s=$OUT/s.bin"
	assert_success
	run python3 -c '
import struct, sys
s = struct.unpack("<32f", open(sys.argv[1], "rb").read())
assert list(s) == [float(4 * t + 3 - c) for t in range(8) for c in range(4)], s' "$OUT/s.bin"
	assert_success
}
