# OpenBench and fishtest-style builds: `make -j EXE=/path/to/borrow-dev`.
# Builds the UCI engine for this CPU (see .cargo/config.toml) and copies it
# to $(EXE).
EXE ?= borrow
CARGO ?= cargo

.PHONY: all build clean

all: build
	cp target/release/borrow $(EXE)

build:
	$(CARGO) build --release --locked --bin borrow

clean:
	$(CARGO) clean
