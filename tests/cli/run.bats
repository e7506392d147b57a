#!/usr/bin/env bats
# gpulab run: the transpose family's exact counts on the simulator, other topics, and every error
# path (exit code, message, database untouched).

setup() {
	load test_helper
	common_setup
}

@test "transpose 1024: all five variants verified with the published counts" {
	run --separate-stderr "$GPULAB" run transpose --variant all --size 1024 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$json")" = 5 ]
	for v in copy naive coalesced padded swizzled; do
		[ "$(metric "$json" $v l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum)" = 32768 ]
		[ "$(metric "$json" $v l1tex__t_requests_pipe_lsu_mem_global_op_st.sum)" = 32768 ]
		[ "$(metric "$json" $v l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" = 131072 ]
	done
	for v in copy coalesced padded swizzled; do
		[ "$(metric "$json" $v l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)" = 131072 ]
	done
	[ "$(metric "$json" naive l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)" = 1048576 ]
	[ "$(metric "$json" coalesced l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum)" = 1048576 ]
	[ "$(metric "$json" coalesced l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum)" = 1015808 ]
	for v in padded swizzled; do
		[ "$(metric "$json" $v l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum)" = 32768 ]
		[ "$(metric "$json" $v l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum)" = 0 ]
	done
	for v in coalesced padded swizzled; do
		[ "$(metric "$json" $v l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum)" = 0 ]
	done
}

@test "json output has the documented shape" {
	run --separate-stderr "$GPULAB" run transpose --variant naive --size 64 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq -r '.backend' <<<"$output")" = sim ]
	[ "$(jq -r '.run_id' <<<"$output")" = 1 ]
	[ "$(jq -r '.launches[0].topic' <<<"$output")" = transpose ]
	[ "$(jq -r '.launches[0].params.rows' <<<"$output")" = 64 ]
	[ "$(jq -r '.launches[0].verified' <<<"$output")" = true ]
	[ "$(jq -r '.launches[0].max_abs_err' <<<"$output")" = 0 ]
}

@test "table output names the backend and says time is not measured on the simulator" {
	run "$GPULAB" run transpose --variant coalesced,padded --size 1024 --backend sim --db "$DB"
	assert_success
	assert_output --partial "backend sim"
	assert_output --partial "n/a (simulated)"
	assert_output --regexp "coalesced +yes +4.00 +4.00 +32.00 +1.00"
	# the model's speedup of the fix: coalesced 4.39 us L1-bound, padded 2.50 us
	assert_output --partial "OPT coalesced: shared loads: 32.0 wavefronts per instruction (ideal 1.0)"
	assert_output --partial "(est. speedup up to 43%)"
}

@test "a note every variant shares is printed once; a single variant keeps its own" {
	run "$GPULAB" run transpose --variant coalesced,padded --size 64 --backend sim --db "$DB"
	assert_success
	[ "$(grep -c 'note' <<<"$output")" = 1 ]
	assert_line --regexp "^  note \(every variant\): counts: (SASS-mapped|PTX-level)"
	run "$GPULAB" run transpose --variant naive --size 64 --backend sim --db "$DB"
	assert_success
	assert_line --regexp "^  note naive: counts: "
}

@test "sizes that are not multiples of 32 are guarded and verified" {
	run --separate-stderr "$GPULAB" run transpose --rows 100 --cols 37 --backend sim --db "$DB" --json
	assert_success
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$output")" = 5 ]
	# 100 rows of 37 floats: each warp-row reads 37 floats in two requests (32 + 5 lanes)
	[ "$(metric "$output" copy l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum)" = 200 ]
}

@test "csv output has one row per variant" {
	run --separate-stderr "$GPULAB" run transpose --size 64 --backend sim --db "$DB" --csv
	assert_success
	[ "$(echo "$output" | wc -l)" = 6 ]
	[[ "${lines[0]}" == run_id,backend,topic,variant,part,entry,params,verified* ]]
	[[ "${lines[2]}" == *",transpose,naive,"* ]]
}

@test "gmem_patterns: offsets that break 32-byte alignment cost a sector, strides more" {
	run --separate-stderr "$GPULAB" run gmem_patterns --variant offset --offset 0 --n 4096 --backend sim --db "$DB" --json
	assert_success
	[ "$(metric "$output" offset l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" = 512 ]
	run --separate-stderr "$GPULAB" run gmem_patterns --variant offset,stride,vector4 --offset 1 --stride 4 --n 4096 --backend sim --db "$DB" --json
	assert_success
	[ "$(metric "$output" offset l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" = 640 ]
	[ "$(metric "$output" stride l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" = 2048 ]
	[ "$(metric "$output" vector4 l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum)" = 32 ]
	[ "$(metric "$output" vector4 l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum)" = 512 ]
}

@test "smem_patterns: conflicts grow with the stride, vector widths follow the phase rules" {
	run --separate-stderr "$GPULAB" run smem_patterns --blocks 1 --backend sim --db "$DB" --json
	assert_success
	# one CTA: 8 warps x 4 reads = 32 shared-load instructions after the fill
	for pair in stride1:32 stride2:64 stride8:256 stride32:1024 stride33:32 broadcast:32 vec64:64 vec128:128; do
		v=${pair%%:*} want=${pair##*:}
		got=$(metric "$output" "$v" l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum)
		[ "$got" = "$want" ] || { echo "$v: $got wavefronts, expected $want"; false; }
	done
	[ "$(metric "$output" vec128 l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum)" = 0 ]
	[ "$(metric "$output" stride32 l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum)" = 992 ]
}

@test "gmem_patterns vector4 refuses n that is not a multiple of 4" {
	run "$GPULAB" run gmem_patterns --variant vector4 --n 1001 --backend sim --db "$DB"
	assert_failure 2
	assert_output --partial "multiple of 4"
}

# ---- bad input: exit 2 (or 3), a clear message, and an existing database left byte-identical

@test "unknown topic suggests the nearest" {
	bad_input 2 "unknown topic 'tranpose' (did you mean 'transpose'?)" run tranpose --db "$DB"
}

@test "unknown variant suggests the nearest" {
	bad_input 2 "unknown variant 'paded' for topic transpose (did you mean 'padded'?)" run transpose --variant paded --db "$DB"
}

@test "--size 0 is refused" {
	bad_input 2 "--size 0 is out of range (expected 1 to 65536)" run transpose --size 0 --db "$DB"
}

@test "--size -3 is refused" {
	bad_input 2 "--size -3 is out of range" run transpose --size -3 --db "$DB"
}

@test "--size abc is refused" {
	bad_input 2 "invalid --size 'abc' (expected an integer from 1 to 65536)" run transpose --size abc --db "$DB"
}

@test "a size too large for memory is refused before anything runs" {
	bad_input 2 "GiB of host memory" run transpose --size 60000 --db "$DB"
}

@test "an unknown option suggests the nearest" {
	bad_input 2 "unknown option '--sise' for run (did you mean '--size'?)" run transpose --sise 64 --db "$DB"
}

@test "a parameter of another topic is refused" {
	bad_input 2 "--stride does not apply to topic transpose" run transpose --stride 2 --db "$DB"
}

@test "an option without its value" {
	bad_input 2 "option '--variant' needs a value" run transpose --db "$DB" --variant
}

@test "an unknown backend" {
	bad_input 2 "unknown backend 'simm' (did you mean 'sim'?" run transpose --backend simm --db "$DB"
}

@test "no topic" {
	run "$GPULAB" run --db "$DB"
	assert_failure 2
	assert_output --partial "run needs a TOPIC"
	[ ! -e "$DB" ]
}

@test "an unwritable database path is an environment error and creates nothing" {
	run "$GPULAB" run transpose --size 32 --backend sim --db /proc/gpulab/x.db
	assert_failure 3
	assert_output --partial "/proc/gpulab/x.db"
}

@test "a file that is not a database is refused and left as it was" {
	echo "my notes" >"$BATS_TEST_TMPDIR/notes.txt"
	before=$(sha256sum "$BATS_TEST_TMPDIR/notes.txt")
	run "$GPULAB" run transpose --size 32 --backend sim --db "$BATS_TEST_TMPDIR/notes.txt"
	assert_failure 3
	[ "$(sha256sum "$BATS_TEST_TMPDIR/notes.txt")" = "$before" ]
}

@test "the database follows GPULAB_DB, then XDG_DATA_HOME, then ~/.local/share" {
	GPULAB_DB="$BATS_TEST_TMPDIR/env.db" run "$GPULAB" run transpose --size 32 --backend sim
	assert_success
	[ -s "$BATS_TEST_TMPDIR/env.db" ]
	XDG_DATA_HOME="$BATS_TEST_TMPDIR/xdg" run "$GPULAB" run transpose --size 32 --backend sim
	assert_success
	[ -s "$BATS_TEST_TMPDIR/xdg/gpulab/gpulab.db" ]
	run "$GPULAB" run transpose --size 32 --backend sim
	assert_success
	[ -s "$HOME/.local/share/gpulab/gpulab.db" ]
}

@test "--trace stores the warp-level memory events of the first CTAs, named by buffer" {
	run --separate-stderr "$GPULAB" run transpose --variant coalesced --size 64 --trace --backend sim --db "$DB" --json
	assert_success
	# 256 memory accesses and each of the 8 warps' arrival at the tile's __syncthreads in both CTAs
	[[ "$(jq -r ".launches[0].note" <<<"$output")" == *"trace: 272 events of the first 2 CTAs"* ]]
	run "$GPULAB" query "SELECT space || ':' || op || ':' || buffer AS k, COUNT(*) FROM trace_events GROUP BY k ORDER BY k" --db "$DB" --csv
	assert_success
	assert_output --partial "global:ld:in,64"
	assert_output --partial "global:st:out,64"
	assert_output --partial "shared:ld:tile,64"
	assert_output --partial "shared:st:tile,64"
	assert_output --partial "cta:bar:,16"
	# the first warp's first load: 32 lanes, 4 bytes each, consecutive
	run "$GPULAB" query "SELECT bytes, addr_stride, mask FROM trace_events WHERE space='global' AND op='ld' ORDER BY seq LIMIT 1" --db "$DB" --csv
	assert_line "4,4,4294967295"
}

@test "--sample-ctas simulates part of the grid, scales the counts and says so" {
	run --separate-stderr "$GPULAB" run transpose --variant naive --size 1024 --sample-ctas 64 --backend sim --db "$DB" --json
	assert_success
	[[ "$(jq -r '.launches[0].note' <<<"$output")" == *"sampled 64 of 1024 CTAs, counts scaled by 16, outputs not verified"* ]]
	[ "$(jq -r '.launches[0].verified' <<<"$output")" = null ]
	[ "$(metric "$output" naive l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum)" = 1048576 ]
}

@test "list TOPIC shows ptxas resource usage for sm_80 and sm_90" {
	run "$GPULAB" list transpose --json
	assert_success
	[ "$(jq '.variants[] | select(.name=="padded") | .resources.sm_90.static_smem' <<<"$output")" = 4224 ]
	[ "$(jq '.variants[] | select(.name=="copy") | .resources.sm_80.registers > 0' <<<"$output")" = true ]
}

@test "list attention shows fused_row's shared memory as static + dynamic (its scores, at the default sizes)" {
	run "$GPULAB" list attention
	assert_success
	# seq-k 256 scores + a row of dim 64 + 4 slots, 4 bytes each: 1296 bytes of dynamic shared memory
	assert_line --regexp '^  fused_row +[0-9]+ regs +0\+1296 B smem '
	assert_line --regexp '^  flash2 +[0-9]+ regs +16512 B smem '
	assert_output --partial "(smem A+B: A bytes static, B dynamic at the default sizes"
	run "$GPULAB" list attention --json
	[ "$(jq '.variants[] | select(.name=="fused_row") | .dynamic_smem' <<<"$output")" = 1296 ]
	run "$GPULAB" list transpose
	refute_output --partial "smem A+B"
}
