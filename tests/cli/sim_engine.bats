#!/usr/bin/env bats
# --engine auto|interp|compiled: the compiled engine gives the interpreter's counts, findings and
# outputs; its shared object is cached (a second run compiles nothing); without a C compiler it falls
# back to the interpreter and says why; auto measures the first CTA on the interpreter and compiles only
# when the work left repays it (or the kernel is cached); a wrong engine name is a usage error.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
	export XDG_CACHE_HOME="$OUT/cache"
	SAXPY=(sim "$FX/saxpy.ptx" --kernel saxpy --grid 4 --block 256 --arg i32:1000 --arg f32:2
		--arg buf:x:f32:1000:rand --arg buf:y:f32:1000:const:1)
	# loop_hash: 61 PTX instructions, a loop of ITERS per thread (append --arg i32:ITERS); 2 workers, so
	# auto's decision does not depend on the machine's cores.  CTA 0 runs 640 x ITERS + 3840
	# thread-instructions; 62 CTAs follow it (64 less one per worker).  auto compiles when
	# 62 x that >= 2 x (0.1 s + 1.5 ms x 61) x 600 M/s x 2 workers = 460 M, i.e. ITERS >= 11575, and uses
	# a cached kernel when it is >= 16.8 M (2^24), i.e. ITERS >= 417.
	LOOP=(sim "$FX/loop.ptx" --kernel loop_hash --grid 64 --block 128 --threads 2
		--arg buf:in:u32:8192:rand --arg buf:out:u32:8192:const:0)
}

have_cc() {
	command -v "${GPULAB_CC:-cc}" >/dev/null 2>&1
}

# the JSON without what may differ between engines: the engine, compile and wall time
same_json() {
	jq -S 'del(.sim.engine, .sim.engine_note, .sim.compile_seconds, .sim.compiled_ctas, .sim.wall_seconds)' "$1" >"$1.norm"
	jq -S 'del(.sim.engine, .sim.engine_note, .sim.compile_seconds, .sim.compiled_ctas, .sim.wall_seconds)' "$2" >"$2.norm"
	diff "$1.norm" "$2.norm"
}

@test "--engine compiled gives the interpreter's metrics, findings and dumped buffer" {
	have_cc || skip "no C compiler"
	run "$GPULAB" "${SAXPY[@]}" --engine interp --json --dump "y=$OUT/yi.bin"
	assert_success
	echo "$output" >"$OUT/i.json"
	[ "$(jq -r .sim.engine "$OUT/i.json")" = interp ]
	run "$GPULAB" "${SAXPY[@]}" --engine compiled --json --dump "y=$OUT/yc.bin"
	assert_success
	echo "$output" >"$OUT/c.json"
	[ "$(jq -r .sim.engine "$OUT/c.json")" = compiled ]
	[ "$(jq '.metrics["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"]' "$OUT/c.json")" = 1000 ]
	same_json "$OUT/i.json" "$OUT/c.json"
	cmp "$OUT/yi.bin" "$OUT/yc.bin"
}

@test "the compiled kernel is cached: the second run loads it and says so" {
	have_cc || skip "no C compiler"
	run "$GPULAB" "${SAXPY[@]}" --engine compiled
	assert_success
	assert_output --partial "engine: compiled ("
	assert_output --partial "compiled now)"
	[ "$(ls "$XDG_CACHE_HOME"/gpulab/jit/*.so | wc -l)" = 1 ]
	run "$GPULAB" "${SAXPY[@]}" --engine compiled --json
	assert_success
	[ "$(jq -r .sim.engine <<<"$output")" = compiled ]
	[ "$(jq -r .sim.compile_seconds <<<"$output")" = 0 ]
	run "$GPULAB" "${SAXPY[@]}" --engine compiled
	assert_output --partial "cached)"
	[ "$(ls "$XDG_CACHE_HOME"/gpulab/jit/*.so | wc -l)" = 1 ]
}

@test "findings are the same on both engines (out-of-bounds reads of the sanitizer fixture)" {
	have_cc || skip "no C compiler"
	args=(sim "$FX/sanitizer.ptx" --kernel oob_read --grid 1 --block 64 --arg buf:in:f32:60 --arg buf:out:f32:64 --arg i32:64)
	run "$GPULAB" "${args[@]}" --engine interp --json
	[ "$status" -eq 1 ]
	echo "$output" >"$OUT/i.json"
	run "$GPULAB" "${args[@]}" --engine compiled --json
	[ "$status" -eq 1 ]
	echo "$output" >"$OUT/c.json"
	[ "$(jq .errors "$OUT/c.json")" -gt 0 ]
	same_json "$OUT/i.json" "$OUT/c.json"
}

@test "without a C compiler, --engine compiled falls back to the interpreter and says why" {
	GPULAB_CC=/nonexistent/cc run "$GPULAB" "${SAXPY[@]}" --engine compiled
	assert_success
	assert_output --partial "engine: the interpreter ran kernel _Z5saxpyifPKfPf: no C compiler '/nonexistent/cc'"
	GPULAB_CC=/nonexistent/cc run "$GPULAB" "${SAXPY[@]}" --engine compiled --json
	[ "$(jq -r .sim.engine <<<"$output")" = interp ]
}

@test "gpulab run --engine compiled verifies, and a missing compiler is a note, not an error" {
	run "$GPULAB" run transpose --variant naive --size 64 --engine interp --db "$OUT/a.db"
	assert_success
	GPULAB_CC=/nonexistent/cc run "$GPULAB" run transpose --variant naive --size 64 --engine compiled --db "$OUT/b.db"
	assert_success
	assert_output --partial "no C compiler"
}

@test "auto: a small launch stays on the interpreter and compiles nothing" {
	run "$GPULAB" "${SAXPY[@]}" --json
	assert_success
	[ "$(jq -r .sim.engine <<<"$output")" = interp ]
	[ "$(jq -r .sim.engine_note <<<"$output")" = "" ]
	[ "$(jq -r .sim.compiled_ctas <<<"$output")" = 0 ]
	# a loop of 2000: 80 M thread-instructions, above the cached floor but not enough to repay a compile
	run "$GPULAB" "${LOOP[@]}" --arg i32:2000 --json
	assert_success
	[ "$(jq -r .sim.engine <<<"$output")" = interp ]
	[ "$(jq -r .sim.engine_note <<<"$output")" = "" ]
	[ -z "$(ls "$XDG_CACHE_HOME"/gpulab/jit/ 2>/dev/null)" ]
}

@test "auto: a loop-heavy launch is measured on CTA 0, compiled, and cached for the next run" {
	have_cc || skip "no C compiler"
	run "$GPULAB" "${LOOP[@]}" --arg i32:20000 --engine interp --json --dump "out=$OUT/oi.bin"
	assert_success
	echo "$output" >"$OUT/i.json"
	run "$GPULAB" "${LOOP[@]}" --arg i32:20000 --json --dump "out=$OUT/oa.bin"
	assert_success
	echo "$output" >"$OUT/a.json"
	[ "$(jq -r .sim.engine "$OUT/a.json")" = compiled ]
	[ "$(jq '.sim.compile_seconds > 0' "$OUT/a.json")" = true ]
	# CTA 0 (and whatever the other worker started before the compile ended) ran on the interpreter
	[ "$(jq '.sim.compiled_ctas > 0 and .sim.compiled_ctas < 64' "$OUT/a.json")" = true ]
	[[ "$(jq -r .sim.engine_note "$OUT/a.json")" == "auto: CTA 0 ran 12803840 thread-instructions on the interpreter; 62 CTAs left after one per worker (about 793.8 M, 0.7 s interpreted on 2 threads) repay a compile of about 0.2 s" ]]
	same_json "$OUT/i.json" "$OUT/a.json"
	cmp "$OUT/oi.bin" "$OUT/oa.bin"
	[ "$(ls "$XDG_CACHE_HOME"/gpulab/jit/*.so | wc -l)" = 1 ]
	# the second identical run loads the cached kernel
	run "$GPULAB" "${LOOP[@]}" --arg i32:20000
	assert_success
	assert_output --partial "engine: compiled (after CTA 0 on the interpreter: "
	assert_output --partial "cached)"
	assert_output --partial "engine: auto: CTA 0 ran 12803840 thread-instructions on the interpreter; 62 CTAs left after one per worker (about 793.8 M) run on the cached compiled kernel"
	# and, cached, a launch too small to repay a compile uses it too
	run "$GPULAB" "${LOOP[@]}" --arg i32:2000 --json
	assert_success
	[ "$(jq -r .sim.engine <<<"$output")" = compiled ]
	[ "$(jq -r .sim.compile_seconds <<<"$output")" = 0 ]
	# but not one below the floor
	run "$GPULAB" "${LOOP[@]}" --arg i32:200 --json
	assert_success
	[ "$(jq -r .sim.engine <<<"$output")" = interp ]
	[ "$(ls "$XDG_CACHE_HOME"/gpulab/jit/*.so | wc -l)" = 1 ]
}

@test "--engine takes auto, interp or compiled" {
	run "$GPULAB" "${SAXPY[@]}" --engine fast
	[ "$status" -eq 2 ]
	assert_output --partial "--engine takes auto, interp or compiled, not 'fast'"
	run "$GPULAB" run transpose --size 64 --engine jit
	[ "$status" -eq 2 ]
	assert_output --partial "not 'jit'"
}
