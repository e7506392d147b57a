#!/usr/bin/env bats
# Unmodified CUDA programs on gpulab's own driver library (docs/driver.md): each program of tests/programs
# is built in the test by the toolkit's nvcc with its default flags (its default architecture, compressed
# fatbinaries, the static cudart) and run with build/driver first on LD_LIBRARY_PATH, as a user without
# a GPU would run it; the tests assert the program's own output and exit status, and what the library
# says on stderr.

load test_helper

setup() {
	common_setup
	DRIVER="${GPULAB_DRIVER_DIR:-$(dirname "$GPULAB")/driver}"
	[ -e "$DRIVER/libcuda.so.1" ] || skip "no driver library at $DRIVER (built by 'make build')"
	NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
	[ -x "$NVCC" ] || skip "no nvcc: the test programs are built by the CUDA toolkit's nvcc"
	SRC="$BATS_TEST_DIRNAME/../programs"
	BIN="$BATS_TEST_TMPDIR"
	export GPULAB_DRIVER_THREADS=2
	export GPULAB_PROFILE=0 # the library alone records each program's launches into gpulab's database
	unset GPULAB_STANDIN_FAIL GPULAB_STANDIN_DRIVER GPULAB_STANDIN_DEVICES GPULAB_GPU GPULAB_DRIVER_LOG \
		GPULAB_DRIVER_TRACE
}

# build NAME SOURCES... [-- NVCC FLAGS]: nvcc -o $BIN/NAME SOURCES (default flags unless given)
build() {
	local name=$1
	shift
	"$NVCC" -o "$BIN/$name" "$@" || { echo "nvcc failed for $name"; return 1; }
}

# on_gpulab PROGRAM ARGS...: run it on gpulab's driver library
on_gpulab() {
	LD_LIBRARY_PATH="$DRIVER${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
}

@test "programs: a stock vector add (nvcc -o va va.cu) runs on gpulab's driver and checks its own result" {
	build va "$SRC/runtime_api.cu"
	run --separate-stderr on_gpulab "$BIN/va"
	assert_success
	assert_line --regexp '^device 0: NVIDIA H100 SXM5 80GB \(gpulab simulator\), cc 9\.0, 132 SMs, 48 KiB shared per block \(227 opt-in\), warp 32$'
	assert_line "blocks reversed through shared memory: ok (event time positive)"
	assert_line "pitched 2D copy (pitch 512): ok"
	assert_line "device printf: thread 0 of block 0 saw p[0] = 1000"
	assert_line "device printf: thread 0 of block 0 saw p[0] = 7"
	assert_line "mapped host memory: 1063, registered: 7, pointer types device/host: ok"
	assert_line --regexp "^reverse_block: some registers, occupancy's block size [0-9]+; 64 KiB shared: refused before opting in \(invalid argument\), 16384 after$"
	assert_line "runtime API: all checks passed"
	[ -z "$stderr" ]
}

@test "programs: the default fatbinary embeds zstd-compressed PTX for the toolkit's default architecture" {
	build va "$SRC/runtime_api.cu"
	GPULAB_DRIVER_TRACE=1 run --separate-stderr on_gpulab "$BIN/va"
	assert_success
	[[ "$stderr" =~ "fatbinary of 2 images: the compute_75 PTX picked for sm_90, zstd-compressed ("[0-9]+" bytes, "[0-9]+" uncompressed)" ]]
	[[ "$stderr" == *"module loaded: compute_75 PTX #"* ]]
	# and LZ4 (-Xfatbin=-compress-mode=speed) and none (-Xfatbin=-compress=false) load as well
	build va_lz4 "$SRC/runtime_api.cu" -Xfatbin=-compress-mode=speed
	GPULAB_DRIVER_TRACE=1 run --separate-stderr on_gpulab "$BIN/va_lz4"
	assert_success
	[[ "$stderr" == *"the compute_75 PTX picked for sm_90, LZ4-compressed"* ]]
	build va_plain "$SRC/runtime_api.cu" -Xfatbin=-compress=false
	GPULAB_DRIVER_TRACE=1 run --separate-stderr on_gpulab "$BIN/va_plain"
	assert_success
	[[ "$stderr" == *"the compute_75 PTX picked for sm_90, stored"* ]]
}

@test "programs: __constant__ taps, a __device__ counter and a symbol's address match the CPU" {
	build constant "$SRC/constant.cu"
	run on_gpulab "$BIN/constant"
	assert_success
	assert_line --regexp '^convolution with 9 constant taps: matches the CPU, ([0-9]+) of 3000 clipped \(CPU: \1\)$'
	assert_line "__device__ bias through cudaGetSymbolAddress: 1 -0.5 2 4"
}

@test "programs: structs passed by value (mixed alignment, device pointers, 512 bytes) arrive intact" {
	build struct_param "$SRC/struct_param.cu"
	run on_gpulab "$BIN/struct_param"
	assert_success
	assert_line "Mixed by value: tag g count -1234 scale 3.25 offset 321.5 lanes 4321 last z"
	assert_line "Buffers by value: r[999] = 1499.5 (CPU 1499.5)"
	assert_line "Table (512 bytes) by value: sum 684480 (CPU 684480)"
	assert_line "all struct parameters arrived intact"
}

@test "programs: two streams, events, host callbacks and a captured graph replayed match the CPU" {
	build streams "$SRC/streams.cu"
	run on_gpulab "$BIN/streams"
	assert_success
	assert_line "two streams, events and a 3-node graph replayed 3 times: y matches the CPU"
	assert_line "host functions and callback ran in order: 1 2 3"
	assert_line "elapsed between the events: positive"
	assert_line "stream-ordered allocation: ok (pool in use: 20000 bytes, then 0)"
	assert_line "a graph that allocates and frees its own buffer, launched twice: ok"
}

@test "programs: an out-of-bounds kernel: the program's own check prints cudart's message and exits 1" {
	build oob "$SRC/oob.cu"
	run --separate-stderr on_gpulab "$BIN/oob"
	assert_failure 1
	assert_output "launched
CUDA error at $SRC/oob.cu:21: cudaDeviceSynchronize(): an illegal memory access was encountered"
	# the log names the launch, the faulting warp's 32 bad writes (the launch stops there, as on a GPU) and
	# the first, in the buffer's terms
	GPULAB_DRIVER_LOG=1 run --separate-stderr on_gpulab "$BIN/oob"
	assert_failure 1
	[[ "$stderr" == *"launch 1 fill(int*, int) grid (4097,1,1) block (256,1,1)"*"32 sanitizer errors; first error: invalid __global__ write of size 4 at 0x"*": 0 bytes after the end of buffer 'cudaMalloc #1 (4194304 bytes)' (PTX line "* ]]
	# built with -lineinfo, the first error names the .cu line
	build oob_lines "$SRC/oob.cu" -lineinfo
	GPULAB_DRIVER_LOG=1 run --separate-stderr on_gpulab "$BIN/oob_lines"
	assert_failure 1
	[[ "$stderr" == *"0 bytes after the end of buffer 'cudaMalloc #1 (4194304 bytes)' ($SRC/oob.cu:10)"* ]]
}

@test "programs: template kernels and C++ names, named as C++ in the launch log" {
	build templates "$SRC/templates.cu"
	GPULAB_DRIVER_LOG=1 run --separate-stderr on_gpulab "$BIN/templates"
	assert_success
	assert_output "template kernels: all match the CPU"
	[[ "$stderr" == *"launch 1 void lab::stride_sum<int, 4>(int const*, int*, int) grid (2,1,1)"* ]]
	[[ "$stderr" == *"launch 5 void (anonymous namespace)::apply<(anonymous namespace)::Negate>"* ]]
	[ "$(grep -c '^gpulab driver: launch ' <<<"$stderr")" = 5 ]
}

@test "programs: a cooperative launch sized by the occupancy calculator syncs its whole grid" {
	build cooperative "$SRC/cooperative.cu"
	run on_gpulab "$BIN/cooperative"
	assert_success
	assert_line --regexp '^cooperative launch supported: 1, [0-9]+ blocks/SM x 132 SMs; grid of 64 blocks sums to -18 \(CPU -18\)$'
}

@test "programs: managed memory and a __managed__ variable are read by the host where kernels wrote them" {
	build managed "$SRC/managed.cu"
	run on_gpulab "$BIN/managed"
	assert_success
	assert_output "managed buffer squared twice: matches the CPU; __managed__ launches = 2"
}

@test "programs: the shared cudart (-cudart shared) runs as the static one does" {
	[ -e "$(dirname "$(dirname "$NVCC")")/lib64/libcudart.so.13" ] || ls /usr/local/lib/libcudart.so.13 >/dev/null 2>&1 ||
		skip "no libcudart.so.13 in the toolkit"
	build constant_shared "$SRC/constant.cu" -cudart shared
	ldd "$BIN/constant_shared" | grep -q libcudart.so
	LD_LIBRARY_PATH="$DRIVER:$(dirname "$(dirname "$NVCC")")/lib64" run "$BIN/constant_shared"
	assert_success
	assert_line --regexp '^convolution with 9 constant taps: matches the CPU'
}

@test "programs: three files compiled together, each its own module with its own __constant__" {
	build multi "$SRC"/multi/main.cu "$SRC"/multi/parts_scale.cu "$SRC"/multi/parts_square.cu
	run on_gpulab "$BIN/multi"
	assert_success
	assert_output "three files, three modules: matches the CPU"
}

@test "programs: a driver-API program loads PTX, fatbinary and cubin files and passes parameters both ways" {
	"$NVCC" -ptx -o "$BIN/k.ptx" "$SRC/driver_api/kernels.cu"
	"$NVCC" -fatbin -o "$BIN/k.fatbin" "$SRC/driver_api/kernels.cu"
	"$NVCC" -cubin -o "$BIN/k.cubin" "$SRC/driver_api/kernels.cu"
	build driver_api "$SRC/driver_api/driver_api.cu" -lcuda
	run --separate-stderr on_gpulab "$BIN/driver_api" "$BIN/k.ptx" "$BIN/k.fatbin" "$BIN/k.cubin"
	assert_success
	assert_line "driver 13000, 1 device(s): NVIDIA H100 SXM5 80GB (gpulab simulator), cc 9.x, 132 SMs"
	assert_line "PTX module: axpy with kernelParams then a packed buffer: matches the CPU"
	assert_line "fatbinary module: axpy with kernelParams then a packed buffer: matches the CPU"
	assert_line "pitched rows (pitch 512 bytes): last row reads 6.5"
	assert_line --regexp "^module global 'hits' \(4 bytes\) counted 777; count uses some registers, [0-9]+ blocks of 256 per SM$"
	assert_line "cubin: no kernel image is available for execution on the device"
	assert_line "driver API: all checks passed"
	[[ "$stderr" == *"cannot provide axpy: the image is a cubin (SASS only) and gpulab simulates PTX"* ]]
}

@test "programs: GPULAB_GPU chooses the modelled GPU; an unknown name falls back with a sentence" {
	build constant "$SRC/runtime_api.cu"
	GPULAB_GPU=A100 run on_gpulab "$BIN/constant"
	assert_success
	assert_line --regexp '^device 0: NVIDIA A100 SXM4 80GB \(gpulab simulator\), cc 8\.0, 108 SMs, 48 KiB shared per block \(163 opt-in\)'
	GPULAB_GPU=V100 run --separate-stderr on_gpulab "$BIN/constant"
	assert_success
	assert_line --regexp '^device 0: NVIDIA H100 SXM5 80GB'
	[[ "$stderr" == *"GPULAB_GPU: unknown GPU model 'V100'"*"simulating H100"* ]]
}

@test "programs: SASS-only and -rdc builds are refused with a sentence naming the nvcc flag" {
	build sass_only "$SRC/oob.cu" -gencode arch=compute_90,code=sm_90
	run --separate-stderr on_gpulab "$BIN/sass_only"
	assert_failure 1
	assert_output --partial "no kernel image is available for execution on the device"
	[[ "$stderr" == *"holds SASS only (sm_90)"*"rebuild with nvcc -arch=sm_90"*"-gencode arch=compute_90,code=compute_90"* ]]
	build rdc "$SRC/refused/rdc_main.cu" "$SRC/refused/rdc_part.cu" -rdc=true
	run --separate-stderr on_gpulab "$BIN/rdc"
	[[ "$stderr" == *"-rdc=true (separate compilation, device linking, dynamic parallelism) keeps no PTX"* ]]
}

@test "programs: what gpulab does not implement returns CUDA_ERROR_NOT_SUPPORTED and is named once" {
	cat >"$BIN/ipc.cu" <<'CU'
#include <cstdio>
int main()
{
	void *p;
	cudaMalloc(&p, 64);
	cudaIpcMemHandle_t h;
	for (int i = 0; i < 3; i++)
		std::printf("%s\n", cudaGetErrorString(cudaIpcGetMemHandle(&h, p)));
	return 0;
}
CU
	build ipc "$BIN/ipc.cu"
	run --separate-stderr on_gpulab "$BIN/ipc"
	assert_success
	assert_output "operation not supported
operation not supported
operation not supported"
	[ "$(grep -c 'cuIpcGetMemHandle is not supported by gpulab' <<<"$stderr")" = 1 ]
}

@test "programs: GPULAB_DRIVER_TRACE lists every entry point cudart asks for and the export tables" {
	build va "$SRC/struct_param.cu"
	GPULAB_DRIVER_TRACE=1 run --separate-stderr on_gpulab "$BIN/va"
	assert_success
	[[ "$stderr" == *'cuGetProcAddress("cuLaunchKernel", CUDA 4000) = cuLaunchKernel (implemented)'* ]]
	[[ "$stderr" == *'cuGetProcAddress("cuIpcGetMemHandle", CUDA 4010) = cuIpcGetMemHandle (not implemented)'* ]]
	[[ "$stderr" == *'cuGetExportTable(6bd5fb6c-5bf4-e74a-8987-d93912fd9df9) = the cudart interface table'* ]]
	[[ "$stderr" == *'export table: integrity check, version '* ]]
}

@test "programs: texture objects (tex1Dfetch over linear memory, tex2D bilinear over an array) match the CPU" {
	build texture "$SRC/texture.cu"
	run -0 on_gpulab "$BIN/texture"
	assert_output "tex1Dfetch over linear memory: matches the CPU
tex2D bilinear, clamped, normalized over a 16x8 array: matches the CPU
textures: all checks passed"
}

# Each program again under `gpulab profile`: its own output and status, and one stored launch row per kernel
# launch, none with a sanitizer error.
@test "programs: each program under gpulab profile: its own checks pass and every launch is stored" {
	local db="$BATS_TEST_TMPDIR/profile.db" run_id=0
	for spec in constant:2 struct_param:3 streams:15 managed:2 cooperative:1 texture:2 templates:5 runtime_api:4; do
		local name=${spec%%:*} want=${spec##*:}
		build "$name" "$SRC/$name.cu"
		run -0 --separate-stderr "$GPULAB" profile --db "$db" "$BIN/$name"
		[[ "$stderr" == *"stored as run $((++run_id)) "* ]] || { echo "$name: $stderr"; false; }
		run -0 "$GPULAB" query "SELECT COUNT(*), SUM(sanitizer_errors) FROM launches WHERE run_id = $run_id" --db "$db" --csv
		assert_line "$want,0"
	done
}

@test "programs: the second run of a program reuses ptxas's report from the cache and does not run ptxas" {
	build launches "$SRC/launches.cu"
	export XDG_CACHE_HOME="$BATS_TEST_TMPDIR/cache"
	GPULAB_DRIVER_TRACE=1 GPULAB_DRIVER_LOG=1 run --separate-stderr on_gpulab "$BIN/launches" 3
	assert_success
	assert_output "3 launches: every counter is 3"
	[[ "$stderr" == *"trace: ptxas -arch=sm_90: ran ptxas (cache miss "* ]]
	[[ "$stderr" != *"report reused from the cache"* ]]
	first=$(grep -o 'block (32,1,1) shared 0+0 B, [0-9]* registers' <<<"$stderr" | sort -u)
	[ "$(wc -l <<<"$first")" = 1 ]
	entry=$(ls "$XDG_CACHE_HOME"/gpulab/ptxas/*.ptxas)
	[ "$(stat -c %a "$XDG_CACHE_HOME/gpulab/ptxas") $(stat -c %a "$entry")" = "700 600" ]
	grep -q "^gpulab-ptxas 1 $(basename "$entry" .ptxas) " "$entry"

	GPULAB_DRIVER_TRACE=1 GPULAB_DRIVER_LOG=1 run --separate-stderr on_gpulab "$BIN/launches" 3
	assert_success
	assert_output "3 launches: every counter is 3"
	[[ "$stderr" == *"trace: ptxas -arch=sm_90: report reused from the cache ("*"), ptxas not run"* ]]
	[[ "$stderr" != *"ran ptxas"* ]]
	[ "$(grep -o 'block (32,1,1) shared 0+0 B, [0-9]* registers' <<<"$stderr" | sort -u)" = "$first" ]

	# a damaged entry is a miss: ptxas runs again and the entry is written anew
	printf 'gpulab-ptxas 1 not-this-key 3 0\nabc' >"$entry"
	GPULAB_DRIVER_TRACE=1 run --separate-stderr on_gpulab "$BIN/launches" 3
	assert_success
	[[ "$stderr" == *"ptxas report cache: unusable entry, ignored: $entry"* ]]
	[[ "$stderr" == *"ran ptxas (cache miss "* ]]
	grep -q "^gpulab-ptxas 1 $(basename "$entry" .ptxas) " "$entry"
}

@test "programs: GPULAB_DRIVER_STATS says the library's time per launch outside the simulation" {
	build launches "$SRC/launches.cu"
	GPULAB_DRIVER_STATS=1 run --separate-stderr on_gpulab "$BIN/launches" 20
	assert_success
	assert_output "20 launches: every counter is 20"
	[[ "$stderr" =~ gpulab\ driver\ stats:\ 20\ kernel\ launches\;\ ([0-9.]+)\ s\ inside\ the\ library\'s\ entry\ points,\ ([0-9.]+)\ s\ of\ it\ simulating\;\ ([0-9.]+)\ ms\ per\ launch\ outside\ the\ simulation ]]
	# the per-launch figure is (entry points - simulation) / launches, within the rounding of the printed seconds
	awk -v all="${BASH_REMATCH[1]}" -v sim="${BASH_REMATCH[2]}" -v per="${BASH_REMATCH[3]}" 'BEGIN {
		d = per - (all - sim) * 1000 / 20; exit !(all > 0 && sim > 0 && sim <= all && d * d < 0.06 * 0.06) }'
}
