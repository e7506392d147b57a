#!/usr/bin/env bash
# Install the Debian packages gpulab needs, only those missing.  As root it runs apt-get;
# otherwise it prints the exact command to run.  Costs one dpkg query when all is there.
set -euo pipefail
missing=()
for pkg in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} == 0)); then exit 0; fi
if [[ $(id -u) -eq 0 ]]; then
	echo "gpulab: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null && apt-get install -y -qq "${missing[@]}" >/dev/null; }
else
	echo "gpulab: missing packages; run:" >&2
	echo "  sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
if ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
	echo "gpulab: nvcc not found: install the CUDA toolkit (expected at /usr/local/cuda)" >&2
	exit 1
fi
