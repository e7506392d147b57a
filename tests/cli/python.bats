#!/usr/bin/env bats
# gpulab profile -- python3 SCRIPT: Numba and CuPy kernels on gpulab's driver library.  The scripts
# (examples/) check their own results; the tests assert the script's output, the launch table with the
# Python kernel names, the stored run and its counts, the sanitizer's Python line, and cuBLAS refused
# cleanly.  They run in the virtual environment `make test` makes (tools/python_env.sh) and skip, with
# its reason, when there is none (PyPI unreachable).

setup() {
	load test_helper
	common_setup
	ROOT="$BATS_TEST_DIRNAME/../.."
	BUILD="$(dirname "$GPULAB")"
	PY="$BUILD/venv/bin/python3"
	if [ ! -e "$BUILD/venv/.gpulab-ready" ]; then
		skip "no Python environment: $(cat "$BUILD/venv.skip" 2>/dev/null || echo "run tools/python_env.sh $BUILD")"
	fi
	export GPULAB_DRIVER_THREADS=2
}

# stored SQL: one value from the test's database (CSV's quotes taken off)
stored() {
	"$GPULAB" query --db "$DB" --csv "$1" | tail -n 1 | sed 's/^"\(.*\)"$/\1/'
}

# run_metric RUN NAME: one metric of the run's (only) launch
run_metric() {
	stored "SELECT m.value FROM metrics m JOIN launches l ON l.id = m.launch_id WHERE l.run_id = $1 AND m.name = '$2'"
}

@test "Numba reduction: the script's sum, the launch table with the Python name, the stored run and its counts" {
	run --separate-stderr "$GPULAB" profile --backend sim --db "$DB" -- "$PY" "$ROOT/examples/numba_reduce.py"
	assert_success
	assert_output "numba_reduce: sum of 65536 values = 294900 (NumPy 294900): OK"
	[[ "$stderr" =~ $'\n'block_sum\ +n/a ]] # the launch table's row, by the Python name
	[[ "$stderr" != *"is too old"* ]]      # the nvJitLink stub's warning is silenced
	[[ "$stderr" == *"stored as run 1 "* ]]
	[ "$(stored "SELECT count(*) FROM launches WHERE run_id = 1")" = 1 ]
	[ "$(stored "SELECT variant || ' ' || grid || ' ' || block || ' ' || static_smem FROM launches")" = "block_sum 256,1,1 256,1,1 1024" ]
	# 256 blocks of 8 warps: 8 stores of s[t], then the tree's 4+2+1+1+1+1+1+1 warps store and load
	# twice, thread 0 reads s[0]; 65536 floats read in 8192 sectors; one atomic per block
	[ "$(run_metric 1 smsp__inst_executed_op_shared_st.sum)" = 5120 ]
	[ "$(run_metric 1 smsp__inst_executed_op_shared_ld.sum)" = 6400 ]
	[ "$(run_metric 1 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" = 8192 ]
	[ "$(run_metric 1 l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum)" = 256 ]
	[ "$(stored "SELECT count(*) FROM sanitizer_findings")" = 0 ]
}

@test "Numba vector add and tiled matmul (shared arrays): right results, Python names" {
	run --separate-stderr "$GPULAB" profile --backend sim --db "$DB" -- "$PY" "$ROOT/examples/numba_add.py"
	assert_success
	assert_output "numba_add: 100000 sums, max error 0: OK"
	[ "$(stored "SELECT variant FROM launches WHERE run_id = 1")" = vector_add ]
	run --separate-stderr "$GPULAB" profile --backend sim --db "$DB" -- "$PY" "$ROOT/examples/numba_matmul.py"
	assert_success
	assert_output --regexp '^numba_matmul: 48x40 @ 40x56, max error [0-9.e-]+: OK$'
	# 4 x 3 CTAs of 16 x 16 threads; two shared tiles of 16 x 16 floats: 2 KiB static
	[ "$(stored "SELECT variant || ' ' || grid || ' ' || block || ' ' || static_smem FROM launches WHERE run_id = 2")" = "matmul 4,3,1 16,16,1 2048" ]
}

@test "Numba out-of-bounds write: the sanitizer names the Python line (lineinfo=True)" {
	run --separate-stderr "$GPULAB" profile --backend sim --db "$DB" -- "$PY" "$ROOT/examples/numba_oob.py"
	assert_success # the program's own status: it does not check for errors
	[[ "$stderr" == *"note scale: sanitizer: 1 error, first: invalid __global__ write of size 4"*"(numba_oob.py:14, PTX line"* ]]
	[[ "$stderr" == *"Invalid __global__ write of size 4 bytes at source line 14 (PTX line"*"in block (7,0,0) thread (104,0,0)"* ]]
	# thread 1000 (block 7, thread 104) writes the word just past the 1000 floats
	[ "$(stored "SELECT kind || ' ' || space || ' ' || cuda_line || ' ' || block || ' ' || thread FROM sanitizer_findings")" = "out-of-bounds global 14 7,0,0 104,0,0" ]
	run --separate-stderr "$GPULAB" profile --backend sim --error-exitcode 7 --db "$DB" -- "$PY" "$ROOT/examples/numba_oob.py"
	assert_failure 7
}

@test "--kernel-name matches a Numba kernel by its Python name" {
	run --separate-stderr "$GPULAB" profile --backend sim --kernel-name vector_add --db "$DB" -- "$PY" "$ROOT/examples/numba_add.py"
	assert_success
	[ "$(stored "SELECT count(*) FROM launches WHERE run_id = 1")" = 1 ]
	run --separate-stderr "$GPULAB" profile --backend sim --kernel-name regex:^nothing --db "$DB" -- "$PY" "$ROOT/examples/numba_add.py"
	assert_success
	assert_output --partial "numba_add: 100000 sums"
}

@test "CuPy RawKernel: the script's sum, the kernel by its name beside CuPy's own" {
	run --separate-stderr "$GPULAB" profile --backend sim --db "$DB" -- "$PY" "$ROOT/examples/cupy_rawkernel.py"
	assert_success
	assert_output "cupy_rawkernel: sum of 65536 values = 294900 (NumPy 294900): OK"
	[[ "$stderr" =~ $'\n'block_sum\ +n/a ]]
	[ "$(stored "SELECT variant || ' ' || grid || ' ' || block || ' ' || static_smem FROM launches")" = "block_sum 256,1,1 256,1,1 1024" ]
	[ "$(run_metric 1 smsp__inst_executed_op_shared_st.sum)" = 5120 ] # the same tree as numba_reduce's
}

@test "CuPy ElementwiseKernel and array arithmetic" {
	run --separate-stderr "$GPULAB" profile --backend sim --db "$DB" -- "$PY" "$ROOT/examples/cupy_elementwise.py"
	assert_success
	assert_output "cupy_elementwise: 50000 elements, squared differences and a*2+b: OK"
	# the ElementwiseKernel by its name, then CuPy's own kernels for a * 2 and + b
	[ "$(stored "SELECT group_concat(variant, ' ') FROM (SELECT variant FROM launches ORDER BY id)")" = "squared_diff cupy_multiply__float32_float_fl cupy_add__float32_float32_float" ]
}

@test "CuPy matmul (cuBLAS): a clear message and CuPy's own exception, no crash" {
	cat >"$BATS_TEST_TMPDIR/mm.py" <<'PY'
import cupy as cp
a = cp.ones((8, 8), dtype=cp.float32)
try:
    print((a @ a)[0, 0])
except Exception as e:
    print("raised", type(e).__name__)
PY
	run --separate-stderr "$GPULAB" profile --backend sim --db "$DB" -- "$PY" "$BATS_TEST_TMPDIR/mm.py"
	assert_success
	assert_output --regexp '^raised CUBLASError$'
	[[ "$stderr" == *"cuBLASLt (libcublasLt.so.13, behind CuPy's @, dot and matmul) is not supported on gpulab's simulator"* ]]
}
