#!/usr/bin/env bash
# check_layers.sh [ROOT] — the include graph between folders is the layering docs/ARCHITECTURE.md draws:
# each folder includes only the folders below it (so there is no cycle), a library other folders reach
# through one public header includes only that one of them (SQLite's sqlite3.h beside its sqliteInt.h),
# only store/ includes <sqlite3.h>, and only session/ stores a run (the store's save and its transaction).
# Prints each line that breaks a rule and exits 1; prints the graph with -v.
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
	[insights]="common"
	[profiler]="common sim kernels toolchain"
	[toolchain]="common sim"
	[session]="common kernels profiler store insights"
	[render]="common sim store insights profiler toolchain"
	[sweep]="common kernels store session"
	[visualize]="common kernels sim store"
	[lessons]="common kernels profiler sim store toolchain render session"
	[cli]="common kernels profiler store insights sim session toolchain render sweep visualize lessons"
	[bench]="common kernels sim"
	[driver]="common sim insights"
	[tools]=""
)

# folder: the one header other folders include; the folder's other headers are its own
declare -A public=(
	[sim]="sim.h"
	[profiler]="profiler.h"
	[store]="store.h"
	[session]="session.h"
	[toolchain]="toolchain.h"
	[render]="render.h"
	[sweep]="sweep.h"
)

# The store's writes of a run (and of what the session adds to a run the store assembled), which only the
# session calls (session/session.h).
run_writes='gl_store_(save_run|begin_run|add_launch|commit_run|set_guidance|set_verified)[[:space:]]*\('

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
		elif [[ -v public[$dst] && $inc != "$dst/${public[$dst]}" ]]; then
			echo "$f: includes \"$inc\"; outside $dst/ include only its public header $dst/${public[$dst]}"
			bad=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
	if [[ $src != store ]] && grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*<sqlite3\.h>' "$f"; then
		echo "$f: includes <sqlite3.h>; only store/ talks to SQLite (add a store function instead)"
		bad=1
	fi
	if [[ $src != store && $src != session && $f == *.c ]] && grep -qE "$run_writes" "$f"; then
		echo "$f: stores a run itself; runs reach the store through the session (session/session.h)"
		bad=1
	fi
done < <(git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]' | sed 's|^\./||')

if [[ $verbose == -v ]]; then
	for e in "${!edges[@]}"; do printf '%5d  %s\n' "${edges[$e]}" "$e"; done | sort -k2
fi
exit $bad
