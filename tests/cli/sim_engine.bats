#!/usr/bin/env bats
# --engine auto|interp|compiled: the compiled engine gives the interpreter's counts, findings and
# outputs; its shared object is cached (a second run compiles nothing); without a C compiler it falls
# back to the interpreter and says why; a wrong engine name is a usage error.

setup() {
	load test_helper
	common_setup
	FX="$BATS_TEST_DIRNAME/../fixtures/sim"
	OUT="$BATS_TEST_TMPDIR"
	export XDG_CACHE_HOME="$OUT/cache"
	SAXPY=(sim "$FX/saxpy.ptx" --kernel saxpy --grid 4 --block 256 --arg i32:1000 --arg f32:2
		--arg buf:x:f32:1000:rand --arg buf:y:f32:1000:const:1)
}

have_cc() {
	command -v "${GPULAB_CC:-cc}" >/dev/null 2>&1
}

# the JSON without what may differ between engines: the engine, compile and wall time
same_json() {
	jq -S 'del(.sim.engine, .sim.engine_note, .sim.compile_seconds, .sim.wall_seconds)' "$1" >"$1.norm"
	jq -S 'del(.sim.engine, .sim.engine_note, .sim.compile_seconds, .sim.wall_seconds)' "$2" >"$2.norm"
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

@test "--engine takes auto, interp or compiled" {
	run "$GPULAB" "${SAXPY[@]}" --engine fast
	[ "$status" -eq 2 ]
	assert_output --partial "--engine takes auto, interp or compiled, not 'fast'"
	run "$GPULAB" run transpose --size 64 --engine jit
	[ "$status" -eq 2 ]
	assert_output --partial "not 'jit'"
}
