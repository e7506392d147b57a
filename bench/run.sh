#!/usr/bin/env bash
# make bench: simulator throughput on one core and on all cores, beside the native CPU reference.
# Ratios are measured side by side in one run, so a busy machine slows all columns alike.
set -euo pipefail
build=${1:-build}
"$build/gpulab_bench" "${@:2}"
