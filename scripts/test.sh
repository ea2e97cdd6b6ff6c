#!/usr/bin/env bash
# The project's test command (the one the README gives). It sets up what the tests need on a
# fresh machine, then runs every test in the workspace, saying what it does before each step.
# Arguments go to the first `cargo test` (e.g. `scripts/test.sh -- --nocapture`).
# CHECKERS_SKIP_TEST_SETUP=1 skips the set-up (the tests that need it then skip or fail).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { echo "== test.sh [$1/4] $2"; }

echo "test.sh: 1. prepare what the tests need (scripts/setup-test-deps.sh, which lists what it"
echo "         will do first; as root it installs packages, starts PostgreSQL and creates a"
echo "         database user); 2. every test of the workspace (the first build takes 5-6 minutes);"
echo "         3. the documentation's examples; 4. the evaluation tuner's tests."

if [[ ${CHECKERS_SKIP_TEST_SETUP:-} == 1 ]]; then
    step 1 "set-up skipped (CHECKERS_SKIP_TEST_SETUP=1)"
elif [[ -f scripts/setup-test-deps.sh ]]; then
    step 1 "scripts/setup-test-deps.sh"
    bash scripts/setup-test-deps.sh
fi

step 2 "cargo test --workspace --all-targets"
cargo test --workspace --all-targets --no-fail-fast "$@"
step 3 "cargo test --workspace --doc"
cargo test --workspace --doc
# The evaluation tuner sits behind a cargo feature: its own tests.
step 4 "cargo test -p checkers-engine --features tune (the tuner and the opening-set generator)"
cargo test -p checkers-engine --features tune --lib --bins
echo "test.sh: all tests passed"
