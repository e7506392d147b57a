#!/usr/bin/env bash
# The main job: every transpose variant on the best available backend, stored and shown.
set -euo pipefail
gpulab=${1:-build/gpulab}
echo "== gpulab run transpose --variant all --size 1024   (database: $GPULAB_DB)"
"$gpulab" run transpose --variant all --size 1024
echo
echo "== gpulab query: sectors per request and bank conflicts, from the database"
"$gpulab" query "SELECT variant, gld_sectors_per_request, gst_sectors_per_request, sld_wavefronts_per_instruction, sld_conflicts
                 FROM launch_summary WHERE run_id = (SELECT MAX(id) FROM runs) ORDER BY launch_id"
