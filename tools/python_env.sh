#!/usr/bin/env bash
# python_env.sh BUILD — the virtual environment the Python tests run in (tests/cli/python.bats):
# BUILD/venv with numba-cuda and cupy-cuda13x from PyPI, at the versions docs/profile.md was written
# against.  Made once; a finished one is marked BUILD/venv/.gpulab-ready.  When it cannot be made
# (PyPI unreachable, no python3 venv module), BUILD/venv.skip says why and the tests skip with that
# reason; nothing else fails.  Prints one line saying which.
set -uo pipefail
build=${1:-build}
venv="$build/venv"
skip="$build/venv.skip"
pkgs=(numba-cuda==0.30.4 cupy-cuda13x==14.2.0)
if [ -e "$venv/.gpulab-ready" ]; then
	echo "python: $venv ready (${pkgs[*]})"
	exit 0
fi
rm -f "$skip"
if ! python3 -m venv "$venv" >"$build/venv.log" 2>&1; then
	echo "python3 -m venv failed (install python3-venv): $(tail -n 1 "$build/venv.log")" >"$skip"
elif ! "$venv/bin/pip" install --disable-pip-version-check -q --timeout 30 "${pkgs[@]}" >>"$build/venv.log" 2>&1; then
	if grep -qiE 'connection|resolve|network|timed out|No matching distribution' "$build/venv.log"; then
		echo "PyPI unreachable: pip could not download ${pkgs[*]}" >"$skip"
	else
		echo "pip install ${pkgs[*]} failed: $(tail -n 1 "$build/venv.log")" >"$skip"
	fi
else
	touch "$venv/.gpulab-ready"
	echo "python: $venv made (${pkgs[*]})"
	exit 0
fi
echo "python: tests skip: $(cat "$skip")"
exit 0
