# OpenBench and fishtest-style builds: `make -j EXE=/path/to/borrow-dev`,
# and `make -j EXE=... EVALFILE=/path/to/net.nnue` to build that net in
# instead of engine/nets/default.nnue (OpenBench's client adds EVALFILE for
# an NNUE engine; engine/build.rs reads it as BORROW_EVALFILE). Builds the
# UCI engine for this CPU (see .cargo/config.toml) and copies it to $(EXE).
EXE ?= borrow
CARGO ?= cargo
EVALFILE ?=
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: all build clean

all: build
	cp $(TARGET_DIR)/release/borrow $(EXE)

build:
	$(if $(EVALFILE),BORROW_EVALFILE="$(abspath $(EVALFILE))") $(CARGO) build --release --locked --bin borrow

clean:
	$(CARGO) clean
