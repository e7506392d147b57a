# gpulab — thin wrapper around CMake.  `make demo` and `make test` are the two commands a newcomer needs.
BUILD      ?= build
CMAKE_ARGS ?=
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PKGS   := cmake gcc make pkg-config libsqlite3-dev libzstd-dev liblz4-dev libncurses-dev libopenblas-dev sqlite3 bats bats-support bats-assert tmux jq python3 librsvg2-bin libxml2-utils slurmctld slurmd slurm-client munge man-db groff-base zsh

.PHONY: all deps build demo test bench install clean

all: build

deps:
	@./tools/deps.sh $(DEB_PKGS)

$(BUILD)/Makefile: CMakeLists.txt
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS)

build: $(BUILD)/Makefile
	@cmake --build $(BUILD) -j $(JOBS)

demo: deps build
	@GPULAB_DB=$${GPULAB_DB:-$(CURDIR)/$(BUILD)/demo.db} ./tools/demo.sh $(BUILD)/gpulab

test: deps build
	@./tools/test.sh $(BUILD)

bench: build
	@./bench/run.sh $(BUILD)

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX),)

clean:
	rm -rf $(BUILD)
