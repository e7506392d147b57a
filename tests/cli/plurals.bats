#!/usr/bin/env bats
# Singular and plural: no command says "1 blocks".  Every command of `gpulab --help` runs here at sizes
# where counts of one come up (one block, one run, one thread, one launch), and everything it prints,
# stdout and stderr, is searched for the number 1 before a plural word.

setup() {
	load test_helper
	common_setup
}

# every command of `gpulab --help`
commands() { "$GPULAB" --help | sed -n '/^commands:/,/^$/p' | awk '/^  [^ ]/ && $1 != "help" && $1 != "version" {print $1}'; }

# ran CMD ARGS...: run gpulab with ARGS, append what it printed to out.txt and CMD to ran.txt
ran() {
	echo "$1" >>"$BATS_TEST_TMPDIR/ran.txt"
	{
		echo "\$ gpulab $*"
		"$GPULAB" "$@" 2>&1 || true
	} >>"$BATS_TEST_TMPDIR/out.txt"
}

@test "no output of any command says '1 <plural>'" {
	cd "$BATS_TEST_TMPDIR"
	local ptx="$BATS_TEST_DIRNAME/../fixtures/sim/smem.ptx"
	ran list
	ran list transpose
	ran run transpose --size 32 --variant naive --backend sim --db "$DB"
	ran run transpose --size 32 --variant coalesced --trace --backend sim --db "$DB"
	ran run reduce --n 100 --backend sim --db "$DB"
	ran sim "$ptx" --kernel stride32 --grid 1 --block 1 --arg buf:in:f32:32:seq --arg buf:out:f32:32 --arg i32:32 \
		--trace --db "$DB"
	ran profile --db "$DB" true # no CUDA in it: "made no kernel launch" (profile.bats runs CUDA programs)
	ran report 1 --details --db "$DB"
	ran report 3 --db "$DB"
	ran compare transpose --size 32 --variant copy --backend sim --db "$DB"
	ran compare --runs 1,2 --db "$DB"
	ran query "SELECT COUNT(*) AS runs FROM runs" --db "$DB"
	ran runs --db "$DB"
	ran sweep --topic transpose --param size=16 --variant copy --dry-run
	ran sweep --topic transpose --param size=16 --variant copy --local --dir sw --into sweep.db
	ran merge sw/shard-0.db --into merged.db
	ran import sw/shard-0.db --db "$DB"
	ran view banks --run 2 --frames 2 --db "$DB"
	ran view coalesce --topic transpose --variant naive --size 32 --frames 2 --db "$DB"
	ran view gemm --size 32 --frames 1 --db "$DB"
	ran view reduce --frames 3 --db "$DB"
	ran metrics --chip GA100 --search dram__bytes_read.sum
	ran devices
	ran doctor --db "$DB"
	ran validate transpose --db "$DB"
	ran lesson list --db "$DB"
	ran lesson show 1 --db "$DB"
	ran occupancy transpose --variant naive --gpu L4
	ran plot roofline --run 1 --db "$DB"
	ran plot compare transpose --db "$DB"
	ran baseline hgemm --size 64
	ran exercise list --db "$DB"
	ran exercise hint 1 1
	ran completion bash
	# every command of the table ran
	for c in $(commands); do
		grep -qx "$c" ran.txt || {
			echo "command $c is not run by this test"
			return 1
		}
	done
	# "1 blocks", "1 threads": a count of one before a plural (a parameter's value, "batch=1 heads=1",
	# is no count)
	run grep -nE '(^|[^=.0-9])\b1 [a-z]+s\b' out.txt
	if [ "$status" -eq 0 ]; then
		echo "$output"
		return 1
	fi
	[ "$(grep -c '^\$ gpulab' out.txt)" -gt 30 ]
}
