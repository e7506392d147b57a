#!/usr/bin/env bash
# make bench: simulator throughput on one core and on all cores, beside the native CPU reference.
# Ratios are measured side by side in one run, so a busy machine slows all columns alike.  Then the driver
# library's cost per launch of a program of many small launches (launches.sh), and the first and
# repeated calls of the bench rows at small sizes from an empty cache (calls.sh).
set -euo pipefail
build=${1:-build}
"$build/gpulab_bench" "${@:2}"
"$(dirname "$0")/launches.sh" "$build"
"$(dirname "$0")/calls.sh" "$build"
