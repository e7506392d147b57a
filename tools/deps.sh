#!/usr/bin/env bash
# Install the Debian packages gpulab needs, only those missing.  As root it runs apt-get;
# otherwise it prints the exact command to run.  Costs one dpkg query when all is there.
set -euo pipefail
missing=()
for pkg in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[[ "$status" == "install ok installed" ]] || missing+=("$pkg")
done
if ((${#missing[@]} > 0)); then
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
fi
# nvdisasm lets the simulator count memory accesses as ptxas emits them (docs/sim.md).  The toolkit's
# own, else NVIDIA's PyPI wheel; without it the build falls back to PTX-level counts, so a failed pip
# install is a warning, not an error.
wheel_nvdisasm() {
	python3 -c "import nvidia, os, sys; sys.exit(not any(os.access(p + '/cu13/bin/nvdisasm', os.X_OK) for p in nvidia.__path__))" 2>/dev/null
}
if ! command -v nvdisasm >/dev/null && [[ ! -x /usr/local/cuda/bin/nvdisasm ]] && ! wheel_nvdisasm; then
	echo "gpulab: installing nvdisasm (pip install 'nvidia-cuda-nvdisasm==13.*')" >&2
	python3 -m pip install -q "nvidia-cuda-nvdisasm==13.*" >/dev/null 2>&1 ||
		echo "gpulab: warning: could not install nvidia-cuda-nvdisasm; memory counts will be PTX-level" >&2
fi
if ! command -v nvcc >/dev/null && [[ ! -x /usr/local/cuda/bin/nvcc ]]; then
	echo "gpulab: nvcc not found: install the CUDA toolkit (expected at /usr/local/cuda)" >&2
	exit 1
fi
