#!/usr/bin/env bats
# make install: the binary, gpulab's driver library, the lessons, the docs, and the man page and shell completions the binary
# generates from its own tables (tools/gendoc.sh), so they list every command, topic, view and lesson.

load test_helper

setup() {
	common_setup
	ROOT="$BATS_TEST_DIRNAME/../.."
	BUILD="$(cd "$(dirname "$GPULAB")" && pwd)"
}

install_to() {
	make -s -C "$ROOT" install BUILD="$BUILD" PREFIX="$1" >/dev/null
}

@test "make install PREFIX=... installs the man page, the completions, the lessons and the docs" {
	P="$BATS_TEST_TMPDIR/prefix"
	install_to "$P"
	[ -x "$P/bin/gpulab" ]
	[ -s "$P/share/man/man1/gpulab.1" ]
	[ -s "$P/share/bash-completion/completions/gpulab" ]
	[ -s "$P/share/zsh/site-functions/_gpulab" ]
	[ -s "$P/share/gpulab/lessons/01-coalescing.md" ]
	[ -s "$P/share/doc/gpulab/README.md" ]
	[ -s "$P/share/doc/gpulab/docs/ARCHITECTURE.md" ]
	# gpulab's driver library, where docs/driver.md says, and nothing that would let a program link to it
	[ -s "$P/lib/gpulab/libcuda.so.1" ]
	[ ! -e "$P/lib/gpulab/libcuda.so" ]
	nm -D --defined-only "$P/lib/gpulab/libcuda.so.1" | grep -q ' T cuLaunchKernel$'
	! nm -D --defined-only "$P/lib/gpulab/libcuda.so.1" | grep -q ' T gl_sim_run$'
}

@test "the man page renders with man -l and names every command, topic, view and lesson" {
	command -v man >/dev/null || skip "man-db is not installed (make deps)"
	"$GPULAB" help --man >"$BATS_TEST_TMPDIR/gpulab.1"
	run --separate-stderr env MANWIDTH=100 man --warnings -l "$BATS_TEST_TMPDIR/gpulab.1"
	assert_success
	[ -z "$stderr" ]
	for c in $("$GPULAB" --help | sed -n '/^commands:/,/^$/p' | awk '/^  [^ ]/ {print $1}'); do
		assert_output --partial "gpulab $c"
	done
	topics=$("$GPULAB" list --json | jq -r '.[].name')
	[ -n "$topics" ]
	for t in $topics; do
		assert_output --partial "$t"
	done
	assert_output --partial "EXIT STATUS"
	assert_output --partial "NO_COLOR"
	assert_output --partial "GPULAB_DB"
	assert_output --partial "01-coalescing"
	assert_output --partial "gpulab view banks"
	assert_output --partial "--print-limit"
	# each view says what a step shows and what its point is; each exercise is listed
	assert_output --regexp "Point: access with bank +conflicts"
	assert_output --partial "gpulab view reduce"
	assert_output --partial "EXERCISES"
	assert_output --partial "04-transpose-tiled"
	assert_output --partial "Transpose through a shared tile"
}

# complete_bash WORD...: what bash completion offers for the last word
complete_bash() {
	bash -c 'source <("$1" completion bash); shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _gpulab
		printf "%s\n" "${COMPREPLY[@]}"' _ "$GPULAB" "$@"
}

@test "bash completion: commands, topics, variants, views, lessons, options and their values" {
	run complete_bash gpulab run tr
	assert_output transpose
	run complete_bash gpulab rep
	assert_output report
	run complete_bash gpulab run gemm --variant w
	assert_output warptile
	run complete_bash gpulab --db x.db -q run --size 64 tr
	assert_output transpose
	run complete_bash gpulab view b
	assert_output banks
	run complete_bash gpulab view banks --topic transpose --variant co
	assert_output $'copy\ncoalesced'
	run complete_bash gpulab lesson start 02
	assert_output 02-bank-conflicts
	run complete_bash gpulab lesson ch
	assert_output check
	run complete_bash gpulab view --fr
	assert_output --frames
	run complete_bash gpulab --color n
	assert_output never
	run complete_bash gpulab help vi
	assert_output view
	# a command that prints no JSON is not offered --json
	run complete_bash gpulab view --js
	assert_output ""
}

@test "bash completion: exercise names, a topic's own parameters, views once, a view's variants" {
	run complete_bash gpulab exercise st
	assert_output start
	run complete_bash gpulab exercise start 04
	assert_output 04-transpose-tiled
	run complete_bash gpulab exercise check 01-map ""
	assert_output --partial "$(ls "$BATS_TEST_DIRNAME/../.." | head -1)" # a file name after the exercise
	# transpose takes --rows and --cols, not --seq, --stride or --s
	run complete_bash gpulab run transpose --s
	assert_output $'--size\n--seed\n--sample-ctas'
	run complete_bash gpulab compare attention --se
	assert_output $'--seed\n--seq\n--seq-k'
	# before the topic is known every topic's parameters are offered
	run complete_bash gpulab run --st
	assert_output --stride
	# gemm is a view and a topic: offered once
	run complete_bash gpulab view ""
	[ "$(grep -c '^gemm$' <<<"$output")" = 1 ]
	assert_line reduce
	# a view implies its topic: mma's variants are hgemm's ('all' is no view)
	run complete_bash gpulab view mma --variant mma_
	assert_output $'mma_ldmatrix\nmma_swizzle\nmma_pipeline'
	run complete_bash gpulab view mma --variant a
	assert_output ""
}

@test "zsh completion offers the same words" {
	command -v zsh >/dev/null || skip "zsh is not installed (make deps)"
	f="$BATS_TEST_TMPDIR/_gpulab"
	"$GPULAB" completion zsh >"$f"
	run zsh -c 'compadd() { shift; print -l -- "$@" | grep "^$PREFIX"; }; PREFIX=tr; words=(gpulab run tr); CURRENT=3; source "$1"' _ "$f"
	assert_output transpose
	run zsh -c 'compadd() { shift; print -l -- "$@" | grep "^$PREFIX"; }; PREFIX=w; words=(gpulab run gemm --variant w); CURRENT=5; source "$1"' _ "$f"
	assert_output warptile
}

@test "completion refuses an unknown shell" {
	run "$GPULAB" completion fish
	assert_failure 2
	assert_output --partial "completion is generated for bash or zsh, not 'fish'"
}
