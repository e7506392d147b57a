#!/usr/bin/env bash
# cuda_samples_survey.sh GIT_DIR|CHECKOUT [SAMPLE...] — build NVIDIA's cuda-samples programs unmodified with
# stock nvcc (default flags, -I Common for their helper headers) and run each under `gpulab profile`,
# reporting whether it passed its own check (the samples exit with EXIT_FAILURE when their check fails:
# exit 0 and no FAIL/ERROR line from the program) or why not.
# Offline: it reads a local clone (a bare git directory or a checkout); nothing is downloaded.
# GPULAB (default build/gpulab), NVCC, and SURVEY_TIMEOUT (seconds per program, default 600) apply.
set -uo pipefail
src=${1:?usage: cuda_samples_survey.sh GIT_DIR|CHECKOUT [SAMPLE...]}
shift
samples=("$@")
[ ${#samples[@]} -gt 0 ] || samples=(vectorAdd simpleTexture simpleStreams matrixMul convolutionSeparable
	quasirandomGenerator binomialOptions reduction simpleCooperativeGroups radixSortThrust)
root=$(cd "$(dirname "$0")/.." && pwd)
gpulab=${GPULAB:-$root/build/gpulab}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
work=$(mktemp -d "${TMPDIR:-/tmp}/cuda-samples-survey.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -d "$src/objects" ] || [ -f "$src/HEAD" ] && [ ! -d "$src/.git" ]; then
	# each file that is there (a clone may lack large blobs: docs, images), docs left out
	git --git-dir="$src" ls-tree -r --name-only HEAD Common Samples | grep -v '/doc/' |
		while IFS= read -r f; do
			mkdir -p "$work/$(dirname "$f")"
			git --git-dir="$src" cat-file blob "HEAD:$f" >"$work/$f" 2>/dev/null || rm -f "$work/$f"
		done
else
	cp -r "$src/Common" "$src/Samples" "$work/" || exit 3
fi
export GPULAB_DB="$work/survey.db" GPULAB_DRIVER_THREADS=${GPULAB_DRIVER_THREADS:-2}
passed=0
for s in "${samples[@]}"; do
	dir=$(find "$work/Samples" -maxdepth 2 -type d -name "$s" | head -1)
	if [ -z "$dir" ]; then
		printf '%-26s not found in the checkout\n' "$s"
		continue
	fi
	cd "$dir" || continue
	shopt -s nullglob
	sources=(./*.cu ./*.cpp)
	shopt -u nullglob
	if ! "$nvcc" -I "$work/Common" -o "$work/$s" "${sources[@]}" >"$work/$s.build" 2>&1; then
		printf '%-26s does not build: %s\n' "$s" "$(grep -m1 -E 'error|undefined' "$work/$s.build")"
		continue
	fi
	timeout "${SURVEY_TIMEOUT:-600}" "$gpulab" profile --log "$work/$s.table" -- "$work/$s" >"$work/$s.out" 2>"$work/$s.err"
	rc=$?
	if [ $rc = 0 ] && ! grep -qE 'FAIL|ERROR' "$work/$s.out"; then
		printf '%-26s passes its own check (%s launches stored)\n' "$s" \
			"$("$gpulab" query "SELECT COUNT(*) FROM launches WHERE run_id = (SELECT MAX(id) FROM runs)" --csv | tail -1)"
		passed=$((passed + 1))
	else
		why=$(grep -h -m1 -iE 'gpulab driver:|error|fail|not supported' "$work/$s.err" "$work/$s.out" | head -1)
		[ $rc = 124 ] && why="still simulating after ${SURVEY_TIMEOUT:-600} s"
		printf '%-26s exit %s: %s\n' "$s" "$rc" "${why:-its own check failed}"
	fi
done
echo "$passed of ${#samples[@]} passed their own checks"
