#!/usr/bin/env bats
# gpulab run attention: every variant verified against the double-precision reference (causal or not, odd
# lengths, cross attention), naive's three launches stored as one variant with per-launch rows, the O(N^2)
# store traffic of naive against FlashAttention's, flash1's extra O/m/l traffic, causal block skipping,
# tensor-core FLOPs, and the refusals.

setup() {
	load test_helper
	common_setup
}

ST=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
LD=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
FLOPS=gpulab__attention_flops.sum
TENSOR=gpulab__attention_tensor_flops.sum
BPO=gpulab__attention_global_bytes_per_output.ratio

all_verified() { # JSON: every variant verified, with an error below the stated tolerance
	[ "$(jq '[.launches[] | select(.verified)] | length' <<<"$1")" = 5 ] || { jq -c '.launches[] | [.variant, .verified, .note]' <<<"$1"; false; }
}

@test "attention 256 x 64: all five variants verified, naive as three launches, store traffic N^2 against N" {
	run --separate-stderr "$GPULAB" run attention --variant all --size 256 --dim 64 --backend sim --db "$DB" --json
	assert_success
	json="$output"
	all_verified "$json"
	# naive: the total and its launches, each with its own kernel and counts adding up to the total
	[ "$(jq -r '.launches[] | select(.variant == "naive") | [.parts[].entry] | join(",")' <<<"$json")" = \
		attention_naive_scores,attention_naive_softmax,attention_naive_pv ]
	[ "$(jq --arg m $ST '.launches[] | select(.variant == "naive") | [.parts[].metrics[$m]] | add' <<<"$json")" = \
		"$(metric "$json" naive $ST)" ]
	# S and P are 256x256 floats (8192 sectors each), O 256x64 (2048): naive stores 9x what flash2 does
	[ "$(metric "$json" naive $ST)" = 18432 ]
	[ "$(metric "$json" flash2 $ST)" = 2048 ]
	[ "$(metric "$json" flash2_mma $ST)" = 2048 ]
	(($(metric "$json" naive $ST) >= 5 * $(metric "$json" flash2 $ST)))
	# flash1 takes O, m and l through global memory on every K/V block: more bytes than flash2 in total
	f1=$(($(metric "$json" flash1 $LD) + $(metric "$json" flash1 $ST)))
	f2=$(($(metric "$json" flash2 $LD) + $(metric "$json" flash2 $ST)))
	((f1 > f2)) || { echo "flash1 $f1 sectors, flash2 $f2"; false; }
	# tensor cores: 4 N^2 d FLOPs, 4096 per mma.sync m16n8k16
	[ "$(metric "$json" flash2_mma $TENSOR)" = 16777216 ]
	[ "$(metric "$json" flash2 $TENSOR)" = 0 ]
	# the swizzled tiles: stores and ldmatrix reads without bank conflicts, each ldmatrix.x4 in 4 wavefronts
	[ "$(metric "$json" flash2_mma l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum)" = 0 ]
	[ "$(metric "$json" flash2_mma l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum)" = 0 ]
	ldsm=$(metric "$json" flash2_mma smsp__inst_executed_op_ldsm.sum)
	((ldsm > 0))
	[ "$(metric "$json" flash2_mma l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum)" = $((4 * ldsm)) ]
	# global bytes per output element: naive's N^2 traffic against flash2's
	awk -v a="$(metric "$json" naive $BPO)" -v b="$(metric "$json" flash2 $BPO)" 'BEGIN { exit !(a > 50 * b) }'
}

@test "attention causal: verified, flash2 skips the blocks above the diagonal (<= 60% of the FLOPs)" {
	run --separate-stderr "$GPULAB" run attention --variant flash2,flash2_mma --size 256 --dim 64 --backend sim --db "$DB" --json
	assert_success
	full=$(metric "$output" flash2 $FLOPS)
	run --separate-stderr "$GPULAB" run attention --variant all --size 256 --dim 64 --causal 1 --backend sim --db "$DB" --json
	assert_success
	all_verified "$output"
	causal=$(metric "$output" flash2 $FLOPS)
	awk -v c="$causal" -v f="$full" 'BEGIN { exit !(c <= 0.6 * f && c > 0.4 * f) }' || { echo "causal $causal of $full"; false; }
	# 64-row Q blocks against 32-key blocks: 2 + 4 + 6 + 8 of the 32 block pairs
	[ "$(metric "$output" flash2_mma $TENSOR)" = $((16777216 * 20 / 32)) ]
}

@test "attention at odd lengths: seq 100, seq-k 77, causal or not, and d 32 and 128 with several heads" {
	for causal in 0 1; do
		run --separate-stderr "$GPULAB" run attention --variant all --seq 100 --seq-k 77 --causal $causal --backend sim --db "$DB" --json
		assert_success
		all_verified "$output"
		[ "$(jq -r '.launches[0].params."seq-k"' <<<"$output")" = 77 ]
	done
	run --separate-stderr "$GPULAB" run attention --variant all --seq 33 --seq-k 130 --dim 128 --batch 2 --heads 2 --causal 1 --backend sim --db "$DB" --json
	assert_success
	all_verified "$output"
	run --separate-stderr "$GPULAB" run attention --variant all --seq 1 --dim 32 --backend sim --db "$DB" --json
	assert_success
	all_verified "$output"
}

@test "attention: report, CSV and compare show naive's launches and its total" {
	"$GPULAB" run attention --variant naive,flash2 --size 64 --backend sim --db "$DB" >/dev/null 2>&1
	run -0 "$GPULAB" report --db "$DB"
	assert_output --partial "total of 3 launches"
	assert_output --regexp "  2/3 .* attention_naive_softmax"
	assert_output --regexp "attention flash2 +tensor_flops 0, flops [0-9.e+]+, global_bytes_per_output"
	run -0 "$GPULAB" report --db "$DB" --csv
	[ "$(grep -c '^[0-9]*,sim,attention,naive,' <<<"$output")" = 4 ]
	assert_output --regexp ",attention,naive,3,attention_naive_pv,"
	run -0 --separate-stderr "$GPULAB" compare attention --variant naive,flash2 --size 64 --backend sim --db "$DB"
	assert_output --partial "naive: totals of its 3 kernel launches"
}

@test "attention refuses a head dimension its kernels do not take, and fused_row a row that does not fit" {
	run --separate-stderr "$GPULAB" run attention --dim 48 --backend sim --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"--dim 48"*"32, 64 or 128"* ]]
	run --separate-stderr "$GPULAB" run attention --variant fused_row --seq 4 --seq-k 20000 --backend sim --db "$DB"
	assert_failure 2
	[[ "$stderr" == *"--seq-k at most"* ]]
}

@test "a view of naive shows its first launch, recorded and then read back as the same launch" {
	run -0 --separate-stderr "$GPULAB" view coalesce --topic attention --variant naive --frames 1 --db "$DB"
	assert_output --partial "recorded now on the simulator (run 1, launch 2)" # launch 1 is the variant's total
	run -0 --separate-stderr "$GPULAB" query --csv --db "$DB" "SELECT part, entry FROM launches WHERE id = 2"
	assert_line "1,attention_naive_scores"
	run -0 --separate-stderr "$GPULAB" view coalesce --topic attention --variant naive --frames 1 --db "$DB"
	assert_output --partial "stored trace: run 1, launch 2"
}
