#!/usr/bin/env bash
# check_layers.sh [ROOT] — the include graph between folders is the layering docs/ARCHITECTURE.md draws:
# each folder includes only the folders below it (so there is no cycle), and only store/ includes
# <sqlite3.h>.  Prints each include that breaks the rule and exits 1; prints the graph with -v.
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
verbose=${2:-}
cd "$root" || exit 2

# folder: the folders it may include (besides itself)
declare -A allowed=(
	[common]=""
	[sim]="common"
	[kernels]="common"
	[store]="common"
	[insights]="common store"
	[profiler]="common sim kernels"
	[run]="common kernels profiler store insights"
	[visualize]="common kernels sim store"
	[lessons]="common kernels profiler sim store"
	[cli]="common kernels profiler store insights sim run visualize lessons"
	[bench]="common kernels sim"
	[driver]="common sim insights store"
	[tools]=""
)

bad=0
declare -A edges=()
while IFS= read -r f; do
	src=${f%%/*}
	[[ -v allowed[$src] ]] || continue
	while IFS= read -r inc; do
		dst=${inc%%/*}
		[[ $inc == */* && $dst != "$src" ]] || continue
		edges["$src -> $dst"]=$((${edges["$src -> $dst"]:-0} + 1))
		if [[ " ${allowed[$src]} " != *" $dst "* ]]; then
			echo "$f: includes \"$inc\", but $src/ may include only: ${allowed[$src]:-nothing}"
			bad=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	if [[ $src != store ]] && grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*<sqlite3\.h>' "$f"; then
		echo "$f: includes <sqlite3.h>; only store/ talks to SQLite (add a store function instead)"
		bad=1
	fi
done < <(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' | sed 's|^\./||')

if [[ $verbose == -v ]]; then
	for e in "${!edges[@]}"; do printf '%5d  %s\n' "${edges[$e]}" "$e"; done | sort -k2
fi
exit $bad
