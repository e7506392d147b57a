#!/usr/bin/env bash
# The main job: every transpose variant on the best available backend, stored and shown.  Every command
# it prints can be pasted: the binary as given and the demo's database by name (make demo sets
# GPULAB_DB to build/demo.db, which a new shell does not have).
set -euo pipefail
gpulab=${1:-build/gpulab}
db=${GPULAB_DB:?make demo sets GPULAB_DB}
run=(run transpose --variant all --size 1024 --db "$db")
sql="SELECT variant, gld_sectors_per_request, gst_sectors_per_request, sld_wavefronts_per_instruction, sld_conflicts FROM launch_summary WHERE run_id = (SELECT MAX(id) FROM runs) ORDER BY launch_id"
echo "\$ $gpulab ${run[*]}"
"$gpulab" "${run[@]}"
echo
echo "\$ $gpulab query \"$sql\" --db $db"
"$gpulab" query "$sql" --db "$db"
echo
echo "next (paste one):"
echo "  $gpulab lesson start 01-coalescing       # a guided lesson: it runs, explains and checks; then 'lesson next'"
echo "  $gpulab view transpose --variant naive   # a warp's stores, step by step (q quits)"
echo "  $gpulab list                             # every topic; '$gpulab exercise list' the exercises"
