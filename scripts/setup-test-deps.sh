#!/usr/bin/env bash
# Installs and starts what the tests need on a fresh Debian machine (run as root; scripts/test.sh
# calls it). It first says what it will do on this machine, then does it, announcing each step
# as it starts; `--plan` only says. Idempotent and quick when everything is already in place.
# Not root, it installs nothing and sets up only what needs no root (the Python venv).
# One section per need, each with a title_, a plan_ and a setup_ function; add new sections
# at the end and list them in NEEDS.
set -euo pipefail
cd "$(dirname "$0")/.."

plan_only=0
case "${1:-}" in
    --plan) plan_only=1 ;;
    "") ;;
    *) echo "usage: scripts/setup-test-deps.sh [--plan]" >&2; exit 2 ;;
esac

say() { echo "setup-test-deps: $*"; }
warn() { echo "setup-test-deps: WARNING: $*" >&2; }
is_root() { [[ $(id -u) -eq 0 ]]; }
has() { command -v "$1" >/dev/null 2>&1; }

apt_updated=0
apt_log=target/test-deps/apt.log
# apt-get's own output is long; it goes to $apt_log, and is shown if apt-get fails.
apt_install() {
    mkdir -p target/test-deps
    if [[ $apt_updated -eq 0 ]]; then
        say "  apt-get update (output in $apt_log)"
        DEBIAN_FRONTEND=noninteractive apt-get update -q >"$apt_log" 2>&1 || { tail -n 20 "$apt_log" >&2; return 1; }
        apt_updated=1
    fi
    say "  apt-get install $* (output in $apt_log; a few minutes on a fresh machine)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" >>"$apt_log" 2>&1 \
        || { tail -n 20 "$apt_log" >&2; return 1; }
}

# ---- PostgreSQL for the server's storage tests (crates/server/tests) -----------------------
# Writes the URL the tests read to target/test-deps/postgres-url (CHECKERS_TEST_POSTGRES_URL
# in the environment wins over it).
PG_ROLE=checkers
PG_DATABASE=checkers_test
PG_URL="postgres://$PG_ROLE:$PG_ROLE@127.0.0.1:5432/$PG_DATABASE"

pg_first_cluster() {
    has pg_lsclusters && pg_lsclusters --no-header 2>/dev/null | head -n 1
}

title_postgres() { echo "PostgreSQL, for the server's storage tests"; }

plan_postgres() {
    if ! is_root; then
        echo "  - nothing (not root): those tests then skip PostgreSQL unless CHECKERS_TEST_POSTGRES_URL names a server"
        return 0
    fi
    has pg_lsclusters || echo "  - install the Debian package postgresql (apt-get)"
    local version cluster status
    read -r version cluster _ status _ < <(pg_first_cluster) || true
    if [[ -z "${version:-}" ]]; then
        echo "  - create a PostgreSQL cluster and start it (a server on 127.0.0.1:5432)"
    elif [[ "$status" != online* ]]; then
        echo "  - start the PostgreSQL cluster $version/$cluster (a server on 127.0.0.1:5432)"
    fi
    echo "  - create the database user '$PG_ROLE' (password '$PG_ROLE') and the database '$PG_DATABASE', if missing"
    echo "  - write $PG_URL to target/test-deps/postgres-url"
}

setup_postgres() {
    if ! is_root; then
        say "not root; skipping the PostgreSQL set-up"
        return 0
    fi
    if ! has pg_lsclusters; then
        say "installing PostgreSQL"
        apt_install postgresql
    fi
    # Start the first cluster if it is not running (no systemd needed).
    local version cluster status
    read -r version cluster _ status _ < <(pg_first_cluster) || true
    if [[ -z "${version:-}" ]]; then
        version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
        cluster=main
        status=down
        say "creating the PostgreSQL $version cluster '$cluster'"
        pg_createcluster "$version" "$cluster" >/dev/null
    fi
    if [[ "$status" != online* ]]; then
        say "starting the PostgreSQL cluster $version/$cluster"
        pg_ctlcluster "$version" "$cluster" start
    fi
    say "waiting for PostgreSQL to accept connections on 127.0.0.1:5432"
    local ready=0
    for _ in $(seq 1 30); do
        if pg_isready -q -h 127.0.0.1 -p 5432; then
            ready=1
            break
        fi
        sleep 0.5
    done
    [[ $ready -eq 1 ]] || warn "PostgreSQL does not answer on 127.0.0.1:5432 after 15 s"
    local psql=(runuser -u postgres -- psql -v ON_ERROR_STOP=1 -q -X)
    if [[ $("${psql[@]}" -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$PG_ROLE'") != 1 ]]; then
        say "creating the database user '$PG_ROLE'"
        "${psql[@]}" -c "CREATE ROLE $PG_ROLE LOGIN PASSWORD '$PG_ROLE'"
    fi
    if [[ $("${psql[@]}" -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE'") != 1 ]]; then
        say "creating the database '$PG_DATABASE'"
        "${psql[@]}" -c "CREATE DATABASE $PG_DATABASE OWNER $PG_ROLE"
    fi
    echo "$PG_URL" > target/test-deps/postgres-url
    say "PostgreSQL ready at $PG_URL"
}

# ---- pydraughts for the Hub and DXP client tests (crates/cli/tests/pydraughts_*.rs) --------
# A venv in target/test-deps/pydraughts-venv with pydraughts from PyPI, which drives
# `checkers hub` through its HubEngine (tests/pydraughts/play_games.py) and `checkers dxp`
# through its DXPEngine (tests/pydraughts/dxp_games.py). The tests fail under CI=true when this
# venv (or CHECKERS_TEST_PYTHON) is missing.
PYDRAUGHTS_VENV=target/test-deps/pydraughts-venv
PYDRAUGHTS_VERSION=0.6.7

pydraughts_ready() {
    local python=$PYDRAUGHTS_VENV/bin/python
    [[ -x $python ]] && $python -c "import draughts.engine" 2>/dev/null \
        && [[ $($python -c "import draughts; print(draughts.__version__)") == "$PYDRAUGHTS_VERSION" ]]
}

python_venv_available() {
    has python3 && python3 -c "import venv, ensurepip" 2>/dev/null
}

title_pydraughts() { echo "pydraughts, for the Hub and DXP client tests"; }

plan_pydraughts() {
    if pydraughts_ready; then
        echo "  - nothing (pydraughts $PYDRAUGHTS_VERSION is in $PYDRAUGHTS_VENV)"
        return 0
    fi
    if ! python_venv_available; then
        if ! is_root; then
            echo "  - nothing: python3 with venv is missing, and installing it needs root"
            return 0
        fi
        echo "  - install the Debian packages python3 python3-venv python3-pip (apt-get)"
    fi
    echo "  - create a Python venv in $PYDRAUGHTS_VENV and pip install pydraughts==$PYDRAUGHTS_VERSION from PyPI"
}

setup_pydraughts() {
    if pydraughts_ready; then
        say "pydraughts $PYDRAUGHTS_VERSION already in $PYDRAUGHTS_VENV"
        return 0
    fi
    if ! python_venv_available; then
        if ! is_root; then
            say "python3 with venv is missing and we are not root; skipping pydraughts"
            return 0
        fi
        say "installing python3-venv"
        apt_install python3 python3-venv python3-pip
    fi
    say "creating the venv $PYDRAUGHTS_VENV"
    rm -rf "$PYDRAUGHTS_VENV"
    python3 -m venv "$PYDRAUGHTS_VENV"
    say "pip install pydraughts==$PYDRAUGHTS_VERSION (from PyPI)"
    "$PYDRAUGHTS_VENV/bin/pip" install --quiet --disable-pip-version-check "pydraughts==$PYDRAUGHTS_VERSION"
    say "pydraughts $PYDRAUGHTS_VERSION ready in $PYDRAUGHTS_VENV"
}

# ---- Chromium, playwright-core and axe-core for the browser end-to-end test (web/e2e/*.mjs, run
# by crates/server/tests/browser.rs) -----------------------------------------------------------
playwright_ready() {
    [[ -d web/e2e/node_modules/playwright-core && -d web/e2e/node_modules/axe-core ]]
}

title_browser() { echo "Chromium, playwright-core and axe-core, for the browser test"; }

plan_browser() {
    local missing=()
    if is_root; then
        has chromium || missing+=(chromium)
        has npm || missing+=(nodejs npm)
        [[ ${#missing[@]} -eq 0 ]] || echo "  - install the Debian packages ${missing[*]} (apt-get)"
    fi
    if ! playwright_ready && { has npm || [[ ${#missing[@]} -gt 0 ]]; }; then
        echo "  - npm install playwright-core and axe-core into web/e2e/node_modules"
    fi
    if [[ ${#missing[@]} -eq 0 ]] && { playwright_ready || ! has npm; }; then
        echo "  - nothing"
    fi
}

setup_browser() {
    if is_root; then
        has chromium || { say "installing chromium"; apt_install chromium; }
        has npm || { say "installing nodejs and npm"; apt_install nodejs npm; }
    fi
    if has npm && ! playwright_ready; then
        say "npm install playwright-core and axe-core into web/e2e/node_modules"
        npm install --prefix web/e2e --no-audit --no-fund --silent
    fi
    say "browser test tools ready"
}

# ---- The plan, then each need in turn --------------------------------------------------------
NEEDS=(postgres pydraughts browser)

if is_root; then
    say "what the tests need, and what this does for it here (as root: it installs packages, starts services and creates a database user):"
else
    say "what the tests need, and what this does for it here (not root: nothing is installed):"
fi
for need in "${NEEDS[@]}"; do
    echo "  $("title_$need"):"
    "plan_$need" | sed 's/^/  /'
done
if [[ $plan_only -eq 1 ]]; then
    say "(--plan: nothing was done)"
    exit 0
fi

mkdir -p target/test-deps
step=0
for need in "${NEEDS[@]}"; do
    step=$((step + 1))
    say "[$step/${#NEEDS[@]}] $("title_$need")"
    case $need in
        browser) setup_browser || warn "browser test tools could not be set up" ;;
        *) "setup_$need" ;;
    esac
done
