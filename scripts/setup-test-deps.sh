#!/usr/bin/env bash
# Installs and starts what the tests need on a fresh Debian machine (run as root; scripts/test.sh
# calls it). Idempotent and quick when everything is already in place. One section per need;
# add new sections at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target/test-deps

apt_updated=0
apt_install() {
    if [[ $apt_updated -eq 0 ]]; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ---- PostgreSQL for the server's storage tests (crates/server/tests) -----------------------
# Writes the URL the tests read to target/test-deps/postgres-url (CHECKERS_TEST_POSTGRES_URL
# in the environment wins over it).
setup_postgres() {
    local url="postgres://checkers:checkers@127.0.0.1:5432/checkers_test"
    if [[ $(id -u) -ne 0 ]]; then
        echo "setup-test-deps: not root; skipping the PostgreSQL set-up" >&2
        return 0
    fi
    if ! command -v pg_lsclusters >/dev/null 2>&1; then
        echo "setup-test-deps: installing postgresql"
        apt_install postgresql
    fi
    # Start the first cluster if it is not running (no systemd needed).
    local version cluster status
    read -r version cluster _ status _ < <(pg_lsclusters --no-header | head -n 1) || true
    if [[ -z "${version:-}" ]]; then
        version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
        pg_createcluster "$version" main >/dev/null
        cluster=main
        status=down
    fi
    if [[ "$status" != online* ]]; then
        pg_ctlcluster "$version" "$cluster" start
    fi
    for _ in $(seq 1 30); do
        pg_isready -q -h 127.0.0.1 -p 5432 && break
        sleep 0.5
    done
    local psql=(runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -X)
    if [[ $("${psql[@]}" -tAc "SELECT 1 FROM pg_roles WHERE rolname = 'checkers'") != 1 ]]; then
        "${psql[@]}" -c "CREATE ROLE checkers LOGIN PASSWORD 'checkers'"
    fi
    if [[ $("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = 'checkers_test'") != 1 ]]; then
        "${psql[@]}" -c "CREATE DATABASE checkers_test OWNER checkers"
    fi
    echo "$url" > target/test-deps/postgres-url
    echo "setup-test-deps: PostgreSQL ready at $url"
}
setup_postgres

# ---- pydraughts for the Hub client test (crates/cli/tests/pydraughts_client.rs) ------------
# A venv in target/test-deps/pydraughts-venv with pydraughts from PyPI, which drives
# `checkers hub` through its HubEngine (tests/pydraughts/play_games.py). The test fails under
# CI=true when this venv (or CHECKERS_TEST_PYTHON) is missing.
setup_pydraughts() {
    local venv=target/test-deps/pydraughts-venv
    local version=0.6.7
    if [[ -x $venv/bin/python ]] && $venv/bin/python -c "import draughts.engine" 2>/dev/null \
        && [[ $($venv/bin/python -c "import draughts; print(draughts.__version__)") == "$version" ]]; then
        return 0
    fi
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -c "import venv, ensurepip" 2>/dev/null; then
        if [[ $(id -u) -ne 0 ]]; then
            echo "setup-test-deps: python3 with venv is missing and we are not root; skipping pydraughts" >&2
            return 0
        fi
        echo "setup-test-deps: installing python3-venv"
        apt_install python3 python3-venv python3-pip
    fi
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "pydraughts==$version"
    echo "setup-test-deps: pydraughts $version ready in $venv"
}
setup_pydraughts

# ---- Chromium and playwright-core for the browser end-to-end test (web/e2e/play.mjs, run by
# crates/server/tests/browser.rs) --------------------------------------------------------------
setup_browser() {
    if [[ $(id -u) -eq 0 ]]; then
        command -v chromium >/dev/null 2>&1 || { echo "setup-test-deps: installing chromium"; apt_install chromium; }
        command -v npm >/dev/null 2>&1 || { echo "setup-test-deps: installing nodejs and npm"; apt_install nodejs npm; }
    fi
    if command -v npm >/dev/null 2>&1 && [[ ! -d web/e2e/node_modules/playwright-core ]]; then
        npm install --prefix web/e2e --no-audit --no-fund --silent
    fi
    echo "setup-test-deps: browser test tools ready"
}
setup_browser || echo "setup-test-deps: WARNING: browser test tools could not be set up" >&2
