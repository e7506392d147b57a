#!/usr/bin/env bash
# Runs every test: the C unit tests (CTest: the ASan/UBSan-instrumented tests and the uninstrumented
# CUPTI ones, labelled "uninstrumented") and the CLI tests (Bats), then prints one line
# "N passed, N failed, N skipped" totalling both.  A test that cannot run here (CTest: exit 77; Bats:
# skip) counts as skipped, never as passed.  Exit status 1 when anything failed.
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
export GPULAB="$build/gpulab"

echo "== CTest (unit tests)"
ctest_out=$(cd "$build" && ctest --output-on-failure -j "$(nproc 2>/dev/null || echo 2)" 2>&1)
echo "$ctest_out" | tail -n 25
c_total=$(echo "$ctest_out" | sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' | tail -n 1)
c_failed=$(echo "$ctest_out" | sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' | tail -n 1)
c_total=${c_total:-0}
c_failed=${c_failed:-1}
# CTest counts a skipped test (SKIP_RETURN_CODE 77) in the total and lists it under "did not run".
c_skip=$(echo "$ctest_out" | grep -cE '^[[:space:]]*[0-9]+ - .* \(Skipped\)$' || true)

echo "== Python environment (Numba, CuPy)"
"$root/tools/python_env.sh" "$build"
pyskip=""
[ -e "$build/venv.skip" ] && pyskip=" (python tests skipped: $(cat "$build/venv.skip"))"

echo "== Bats (CLI tests)"
# Bats' own stderr is kept apart from the TAP stream: a stray write there (a warning, a process a test
# left behind) must not split a TAP line and make a run look as if Bats never started.
bats_err="$build/bats-stderr.txt"
tap=$(bats --tap "$root/tests/cli" 2>"$bats_err")
echo "$tap" | grep -E '^(not ok|ok .*# skip)' || true
b_ok=$(echo "$tap" | grep -cE '^ok ' || true)
b_skip=$(echo "$tap" | grep -cE '^ok .*# skip' || true)
b_failed=$(echo "$tap" | grep -cE '^not ok' || true)
if ! echo "$tap" | grep -qE '^1\.\.[0-9]+'; then # bats itself failed to run
	echo "$tap" | tail -n 20
	tail -n 20 "$bats_err"
	b_failed=$((b_failed + 1))
fi

passed=$((c_total - c_failed - c_skip + b_ok - b_skip))
failed=$((c_failed + b_failed))
echo "unit: $((c_total - c_failed - c_skip)) passed, $c_failed failed, $c_skip skipped;" \
	"cli: $((b_ok - b_skip)) passed, $b_failed failed, $b_skip skipped"
echo "$passed passed, $failed failed, $((c_skip + b_skip)) skipped$pyskip"
((failed == 0))
