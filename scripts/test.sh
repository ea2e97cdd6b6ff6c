#!/usr/bin/env bash
# The project's test command (the one the README gives). It sets up what the tests need on a
# fresh machine, then runs every test in the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."

# Services and tools some tests need (PostgreSQL, pydraughts, ...) are prepared first.
if [[ -f scripts/setup-test-deps.sh ]]; then
    bash scripts/setup-test-deps.sh
fi

cargo test --workspace --all-targets --no-fail-fast "$@"
cargo test --workspace --doc
# The evaluation tuner sits behind a cargo feature: its own tests.
cargo test -p checkers-engine --features tune --lib --bin checkers-tune tune
