#!/usr/bin/env bats
# README.md's commands run: every ```sh block of the README is run as it is written, in a fresh
# directory with a fresh database, `gpulab` being this build's binary.  A command may report a failed
# check (exit 1: an exercise's starter is not a solution yet) but never a usage error (2) or a broken
# environment (3 and above); a view without --frames gets --frames 1 (no terminal here); `make TARGET`
# must name a target the Makefile has.  ```text blocks are output and synopses, not commands.

setup() {
	load test_helper
	common_setup
	ROOT="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
}

# The ```sh blocks of the README, each written to $BATS_TEST_TMPDIR/block-N.sh; prints how many.
sh_blocks() {
	awk -v dir="$BATS_TEST_TMPDIR" '
		/^```sh$/ { n++; on = 1; file = dir "/block-" n ".sh"; printf "" > file; next }
		/^```/ { on = 0; next }
		on { print >> file }
		END { print n + 0 }' "$ROOT/README.md"
}

@test "every command of the README's sh blocks runs" {
	n=$(sh_blocks)
	[ "$n" -ge 5 ]
	work="$BATS_TEST_TMPDIR/work"
	mkdir -p "$work"
	cat >"$BATS_TEST_TMPDIR/prelude.sh" <<EOF
export GPULAB_DB="$DB"
gpulab() {
	local args=("\$@")
	if [ "\$1" = view ] && [[ " \$* " != *" --frames "* ]]; then
		args+=(--frames 1)
	fi
	"$GPULAB" "\${args[@]}" >>"$BATS_TEST_TMPDIR/out.txt" 2>&1
	local rc=\$?
	echo "rc=\$rc: gpulab \$*" >>"$BATS_TEST_TMPDIR/ran.txt"
	if [ \$rc -ge 2 ]; then
		echo "README command failed with exit \$rc: gpulab \$*" >&2
		tail -5 "$BATS_TEST_TMPDIR/out.txt" >&2
		exit 1
	fi
}
make() {
	command make -n -C "$ROOT" "\$@" >/dev/null || { echo "README: make \$* is no target" >&2; exit 1; }
	echo "rc=0: make \$*" >>"$BATS_TEST_TMPDIR/ran.txt"
}
EOF
	for k in $(seq 1 "$n"); do
		(cd "$work" && bash -c "source '$BATS_TEST_TMPDIR/prelude.sh'; source '$BATS_TEST_TMPDIR/block-$k.sh'")
	done
	# each command line of the blocks ran (continuation lines belong to the one before)
	want=$(cat "$BATS_TEST_TMPDIR"/block-*.sh | grep -cE '^(gpulab|make) ')
	[ "$(grep -c '^rc=' "$BATS_TEST_TMPDIR/ran.txt")" -eq "$want" ]
	[ "$want" -ge 15 ]
	# the ones a learner meets first
	grep -qx 'rc=0: gpulab lesson start 01-coalescing' "$BATS_TEST_TMPDIR/ran.txt"
	grep -qx 'rc=0: gpulab list' "$BATS_TEST_TMPDIR/ran.txt"
	grep -qx 'rc=0: gpulab exercise list' "$BATS_TEST_TMPDIR/ran.txt"
	grep -qx 'rc=0: make demo' "$BATS_TEST_TMPDIR/ran.txt"
}

@test "the README's make demo sample is what the demo prints, line for line but the engine notes" {
	command -v make >/dev/null || skip "make is not installed"
	db="$BATS_TEST_TMPDIR/demo.db"
	run --separate-stderr env GPULAB_DB="$db" "$ROOT/tools/demo.sh" "$GPULAB"
	assert_success
	# the sample between "## What `make demo` prints" and the next heading, without the path of the
	# checkout and the notes that depend on the compiled-kernel cache
	norm() { sed -e "s|$GPULAB|build/gpulab|g; s|$db|/home/you/gpulab/build/demo.db|g" -e '/^  note /d'; }
	sample=$(awk '/^## What `make demo` prints/ { on = 1 } on && /^```text$/ { inside = 1; next } inside && /^```$/ { exit } inside' "$ROOT/README.md" | norm)
	[ -n "$sample" ]
	diff <(echo "$sample") <(echo "$output" | norm)
}
