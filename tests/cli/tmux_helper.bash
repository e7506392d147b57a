# tmux_helper.bash — the terminal the view tests drive: a private tmux server per test (its socket in
# the test's temporary folder), a bash without rc files in a pane named v, and a poll for what the pane
# shows.  Load it from setup() after test_helper; call tmux_teardown from teardown().

SOCK="$BATS_TEST_TMPDIR/tmux.sock"

tm() {
	tmux -S "$SOCK" "$@"
}

tmux_teardown() {
	tmux -S "$SOCK" kill-server 2>/dev/null || true
}

# start W H: a pane of W x H running a plain bash (the test is skipped where tmux is missing)
start() {
	command -v tmux >/dev/null || skip "tmux is not installed (make deps)"
	tm new-session -d -s v -x "$1" -y "$2" "env PS1='$ ' bash --norc --noprofile"
	wait_for '^\$'
}

pane() {
	tm capture-pane -p -t v
}

# wait_for REGEX: until the pane shows it (10 s at most: the machine may be busy); on a timeout the pane
# goes to stderr, which Bats prints with the failure
wait_for() {
	for _ in $(seq 100); do
		if pane | grep -Eq -- "$1"; then
			return 0
		fi
		sleep 0.1
	done
	echo "pane never showed /$1/:" >&2
	pane >&2
	return 1
}
