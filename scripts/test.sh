#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian/Ubuntu machine, then lint
# and run every test (unit, property, AppTest page tests and browser tests).
#
# Python packages go into a virtual environment, .venv (created with python3 when
# missing; Debian and Ubuntu refuse system-wide pip installs), so nothing here calls a
# bare `python`. Debian's chromium is installed with apt-get when missing.
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k portfolio`.
#   PYTHON=python3.13 VENV=.venv-3.13 bash scripts/test.sh   # another interpreter
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv}"

if [ ! -x "$VENV/bin/python" ]; then
  if ! "$PYTHON" -m venv "$VENV"; then
    rm -rf "$VENV"
    echo "Could not create $VENV with $PYTHON. On Debian/Ubuntu: sudo apt-get install python3-venv" >&2
    exit 1
  fi
fi
venv_python="$VENV/bin/python"

"$venv_python" -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

if [ ! -x /usr/bin/chromium ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
fi

# PostgreSQL's server binaries for the contest store's tests (they start a throwaway cluster)
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >/dev/null
fi

"$venv_python" -m ruff check .
"$venv_python" -m ruff format --check .
"$venv_python" -m pytest -n 2 --dist loadfile "$@"
