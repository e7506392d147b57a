#!/usr/bin/env bats
# gpulab profile (docs/driver.md, "gpulab profile"): an unmodified CUDA program run on gpulab's driver library, its kernel
# launches stored as one run of topic "program"; every option and error path.  The programs of
# tests/programs are built once per file by stock nvcc.

load test_helper

setup_file() {
	NVCC="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
	[ -x "$NVCC" ] || return 0
	local src="$BATS_TEST_DIRNAME/../programs" bin="$BATS_FILE_TMPDIR"
	"$NVCC" -o "$bin/va" "$src/runtime_api.cu"
	"$NVCC" -lineinfo -o "$bin/oob" "$src/oob.cu"
	"$NVCC" -o "$bin/templates" "$src/templates.cu"
	"$NVCC" -o "$bin/killed" "$src/killed.cu"
}

setup() {
	common_setup
	[ -e "$(dirname "$GPULAB")/driver/libcuda.so.1" ] || skip "no driver library (built by 'make build')"
	[ -x "$BATS_FILE_TMPDIR/va" ] || skip "no nvcc: the test programs are built by the CUDA toolkit's nvcc"
	BIN="$BATS_FILE_TMPDIR"
	SRC="$BATS_TEST_DIRNAME/../programs"
	export GPULAB_DRIVER_THREADS=2
	unset GPULAB_PROFILE GPULAB_GPU GPULAB_DRIVER_LOG GPULAB_DRIVER_TRACE GPULAB_DRIVER_DIR LD_LIBRARY_PATH
}

# launches RUN: how many launch rows run RUN stored
launches() {
	"$GPULAB" query "SELECT COUNT(*) FROM launches WHERE run_id = $1" --db "$DB" --csv | tail -1
}

@test "profile: a stock program runs as it would, then the table and the run it was stored as" {
	run --separate-stderr "$GPULAB" profile --db "$DB" "$BIN/va"
	assert_success
	assert_line "runtime API: all checks passed"
	[[ "$stderr" =~ "stored as run 1 (" ]]
	[[ "$stderr" == *"reverse_block n/a"* ]]
	[[ "$stderr" == *"profile: $BIN/va exited with status 0"* ]]
	[ "$(launches 1)" = 4 ]
	run -0 "$GPULAB" query "SELECT variant, grid, block, regs > 0, metric_source FROM launches WHERE run_id = 1 ORDER BY id LIMIT 1" --db "$DB" --csv
	assert_line "reverse_block,\"8,1,1\",\"128,1,1\",1,sim"
	# the program's path, the hash of its binary and the demangled name, per launch; the command line per run
	run -0 "$GPULAB" query "SELECT json_extract(params_json, '\$.kernel'), json_extract(params_json, '\$.program'), json_extract(params_json, '\$.sha256') FROM launches WHERE run_id = 1 ORDER BY id LIMIT 1" --db "$DB" --csv
	assert_line "\"reverse_block(int const*, int*, int)\",$BIN/va,$(sha256sum "$BIN/va" | cut -d' ' -f1)"
	run -0 "$GPULAB" query "SELECT argv FROM runs WHERE id = 1" --db "$DB" --csv
	assert_output --partial "profile --db $DB $BIN/va"
	run -0 "$GPULAB" report 1 --details --db "$DB"
	assert_output --partial "reverse_block"
	run -0 "$GPULAB" runs --db "$DB"
	assert_output --partial "program"
}

@test "profile: an out-of-bounds kernel: a sanitizer report with the .cu line, the program's own error, its exit status" {
	run --separate-stderr "$GPULAB" profile --db "$DB" "$BIN/oob"
	assert_failure 1
	assert_output "launched
CUDA error at $SRC/oob.cu:21: cudaDeviceSynchronize(): an illegal memory access was encountered"
	[[ "$stderr" == *"Invalid __global__ write of size 4 bytes at source line 10 (PTX line "*") in block (4096,0,0) thread (0,0,0)"* ]]
	[[ "$stderr" == *"(oob.cu:10, PTX line "* ]] # the launch's note names the file
	[[ "$stderr" == *"ERROR SUMMARY: 32 errors"* ]]
	run -0 "$GPULAB" query "SELECT sanitizer_errors, json_extract(params_json, '\$.cuda_error') FROM launches WHERE run_id = 1" --db "$DB" --csv
	assert_line "32,700"
	run -0 "$GPULAB" query "SELECT kind, cuda_line FROM sanitizer_findings" --db "$DB" --csv
	assert_line "out-of-bounds,10"
}

@test "profile: --error-exitcode N when the sanitizer found an error; the program's status otherwise" {
	run "$GPULAB" profile --error-exitcode 7 --db "$DB" "$BIN/oob"
	assert_failure 7
	run -0 "$GPULAB" profile --error-exitcode 7 --db "$DB" "$BIN/templates"
}

@test "profile: --tool memcheck stops the kernel at its first error, as compute-sanitizer does" {
	run --separate-stderr "$GPULAB" profile --tool memcheck --db "$DB" "$BIN/oob"
	assert_failure 1
	assert_line "CUDA error at $SRC/oob.cu:21: cudaDeviceSynchronize(): unspecified launch failure"
	[[ "$stderr" == *"ERROR SUMMARY: 32 errors"* ]] # the faulting warp's lanes
	run -0 "$GPULAB" query "SELECT json_extract(params_json, '\$.cuda_error') FROM launches" --db "$DB" --csv
	assert_line 719
	bad_input 2 "--tool 'memchek'" profile --tool memchek "$BIN/oob"
}

@test "profile: --kernel-name (name, namespace-qualified, regex:), --launch-skip and --launch-count select launches" {
	run -0 --separate-stderr "$GPULAB" profile --kernel-name stride_sum --db "$DB" "$BIN/templates"
	assert_output "template kernels: all match the CPU" # the launches not selected still ran, correctly
	[ "$(launches 1)" = 3 ]
	run -0 "$GPULAB" profile --kernel-name lab::stride_sum --launch-skip 1 --launch-count 1 --db "$DB" "$BIN/templates"
	[ "$(launches 2)" = 1 ]
	run -0 "$GPULAB" query "SELECT json_extract(params_json, '\$.launch') FROM launches WHERE run_id = 2" --db "$DB" --csv
	assert_line 2
	run -0 "$GPULAB" profile --kernel-name 'regex:^\(anonymous namespace\)::ap' --launch-count 1 --db "$DB" "$BIN/templates"
	run -0 "$GPULAB" query "SELECT variant FROM launches WHERE run_id = 3" --db "$DB" --csv
	assert_output "variant
(anonymous namespace)::apply"
	run -0 --separate-stderr "$GPULAB" profile --kernel-name nothing --db "$DB" "$BIN/templates"
	[[ "$stderr" == *"made no kernel launch that the selection"*"nothing stored"* ]]
	[ "$(launches 4)" = 0 ]
}

@test "profile: --sample-ctas, --max-instructions, --printf-buffer and --trace reach the profiled launches" {
	run "$GPULAB" profile --sample-ctas 1 --kernel-name stride_sum --launch-count 1 --db "$DB" "$BIN/templates"
	assert_failure 1 # a sampled launch leaves outputs unwritten: the program's own check says so
	assert_line "template kernels: FAILED"
	run -0 "$GPULAB" query "SELECT note FROM launches WHERE run_id = 1" --db "$DB" --csv
	assert_output --partial "1 of 2 CTAs simulated (--sample-ctas)"
	run --separate-stderr "$GPULAB" profile --max-instructions 2 --kernel-name stride_sum --launch-count 1 --db "$DB" "$BIN/templates"
	run -0 "$GPULAB" query "SELECT kind FROM sanitizer_findings f JOIN launches l ON l.id = f.launch_id WHERE l.run_id = 2" --db "$DB" --csv
	assert_line budget
	run -0 "$GPULAB" profile --printf-buffer 1 --db "$DB" "$BIN/va"
	refute_line --partial "device printf: thread 0"
	run -0 "$GPULAB" profile --trace --kernel-name stride_sum --launch-count 1 --db "$DB" "$BIN/templates"
	id=$("$GPULAB" query "SELECT MAX(id) FROM launches" --db "$DB" --csv | tail -1)
	run -0 --separate-stderr "$GPULAB" view coalesce --run 4 --launch "$id" --frames 1 --db "$DB"
	assert_output --partial "stored trace: run 4, launch $id"
}

@test "profile: --log FILE takes gpulab's table; --gpu chooses the GPU the program sees" {
	run -0 --separate-stderr "$GPULAB" profile --log "$BATS_TEST_TMPDIR/log" --gpu A100 --db "$DB" "$BIN/va"
	assert_line --regexp '^device 0: NVIDIA A100'
	[ -z "$stderr" ]
	grep -q "stored as run 1" "$BATS_TEST_TMPDIR/log"
	run -0 "$GPULAB" query "SELECT device FROM runs" --db "$DB" --csv
	assert_line --partial "A100"
	bad_input 3 "--log /nonexistent/dir/log: cannot write it" profile --log /nonexistent/dir/log "$BIN/va"
	bad_input 2 "unknown GPU" profile --gpu B9000 "$BIN/va"
}

@test "profile: gpulab's options end at the program; the program's own options are the program's" {
	run -0 --separate-stderr "$GPULAB" profile --db "$DB" -- "$BIN/templates" --kernel-name x
	assert_output "template kernels: all match the CPU"
	[ "$(launches 1)" = 5 ]
}

@test "profile: a program killed mid-way: its completed launches are stored, and the run says so" {
	run --separate-stderr "$GPULAB" profile --db "$DB" "$BIN/killed"
	assert_failure 137
	assert_output "two launches done"
	[[ "$stderr" == *"was killed by signal 9"* ]]
	[ "$(launches 1)" = 2 ]
	run -0 "$GPULAB" report 1 --db "$DB"
	assert_output --partial "killed by signal 9"
}

@test "profile: gpulab's own failures have their own exit statuses" {
	bad_input 2 "profile needs a program to run" profile
	bad_input 2 "unknown option" profile --no-such-option "$BIN/va"
	# a selection that cannot work is refused before the program runs (nothing on its stdout)
	bad_input 2 "the regular expression does not compile" profile --kernel-name 'regex:(' "$BIN/va"
	refute_output --partial "vector add"
	run -127 "$GPULAB" profile --db "$DB" /nonexistent/program
	assert_output --partial "cannot run /nonexistent/program: No such file or directory"
	run "$GPULAB" profile --db "$DB" "$SRC/oob.cu"
	assert_failure 126
	GPULAB_DRIVER_DIR=/nonexistent run "$GPULAB" profile --db "$DB" "$BIN/va"
	assert_failure 3
	assert_output --partial "GPULAB_DRIVER_DIR=/nonexistent holds no libcuda.so.1"
}

@test "profile: the library alone records too, into the same database, and says so in one line" {
	LD_LIBRARY_PATH="$(dirname "$GPULAB")/driver" GPULAB_DB="$DB" run --separate-stderr "$BIN/templates"
	assert_success
	assert_output "template kernels: all match the CPU"
	[[ "$stderr" =~ ^"gpulab: 5 kernel launches of $BIN/templates stored as run 1 in $DB; see them with: ".*"report 1" ]]
	[ "$(launches 1)" = 5 ]
	# GPULAB_PROFILE=0 turns it off
	LD_LIBRARY_PATH="$(dirname "$GPULAB")/driver" GPULAB_DB="$DB" GPULAB_PROFILE=0 run --separate-stderr "$BIN/templates"
	[ -z "$stderr" ]
}

@test "profile: compare --runs of two program runs reads n/a, JSON null and an empty CSV field as the verdict" {
	# a program's launches are not checked by gpulab (only the program knows its outputs): no verdict stored
	"$GPULAB" profile --db "$DB" "$BIN/va" >/dev/null 2>&1
	"$GPULAB" profile --db "$DB" "$BIN/va" >/dev/null 2>&1
	run -0 "$GPULAB" query "SELECT count(*), count(verified) FROM launches" --db "$DB" --csv
	assert_line --index 1 "8,0"
	run -0 --separate-stderr "$GPULAB" compare --runs 1,2 --db "$DB"
	assert_line --index 2 --regexp '^variant +verified +ld sectors'
	assert_line --index 3 --regexp '^r1:reverse_block n/a +125 +125 +64 '
	assert_line --index 7 --regexp '^r2:reverse_block n/a +125 '
	[ "$(grep -cE '^r[12]:[a-z_]+ +n/a ' <<<"$output")" = 8 ]
	refute_output --regexp '^r[12]:[a-z_]+ +(yes|NO) '
	run -0 --separate-stderr "$GPULAB" compare --runs 1,2 --db "$DB" --json
	[ "$(jq '.variants | length' <<<"$output")" = 8 ]
	[ "$(jq -c '[.variants[].verified] | unique' <<<"$output")" = "[null]" ]
	run -0 --separate-stderr "$GPULAB" compare --runs 1,2 --db "$DB" --csv
	assert_line --index 0 --partial "run_id,topic,variant,verified,baseline,"
	assert_line --index 1 --regexp '^1,program,r1:reverse_block,,r1:reverse_block,125,125,64,'
	[ "$(grep -c '^1,program,r[12]:[a-z_]*,,r1:reverse_block,' <<<"$output")" = 8 ]
}

@test "profile: --spool reads only a private spool directory, and rejects files that are not launches" {
	mkdir -m 0777 "$BATS_TEST_TMPDIR/open"
	bad_input 2 "not a private directory of this user" profile --spool "$BATS_TEST_TMPDIR/open" -- "$BIN/va"
	assert_output --partial "writable by every user (mode 0777): another user could put files there; run 'chmod go-w $BATS_TEST_TMPDIR/open'"
	ln -s "$BATS_TEST_TMPDIR/open" "$BATS_TEST_TMPDIR/link"
	chmod 0700 "$BATS_TEST_TMPDIR/open"
	bad_input 2 "is a symbolic link" profile --spool "$BATS_TEST_TMPDIR/link" -- "$BIN/va"
	bad_input 2 "not a directory" profile --spool "$BATS_TEST_TMPDIR/none" -- "$BIN/va"
	mkdir -m 0700 "$BATS_TEST_TMPDIR/spool"
	printf 'GLSPOOL\0junk' >"$BATS_TEST_TMPDIR/spool/launch-000001"
	run -0 --separate-stderr "$GPULAB" profile --spool "$BATS_TEST_TMPDIR/spool" --db "$DB" -- "$BIN/va"
	[[ "$stderr" == *"1 launch file of the spool rejected (first: launch-000001: "*"): not stored"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/spool" ]
}
