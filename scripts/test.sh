#!/usr/bin/env bash
# Install everything the test suite needs on a fresh Debian machine, then lint
# and run every test (unit, property, AppTest page tests and browser tests).
# Extra arguments go to pytest, e.g. `bash scripts/test.sh -k portfolio`.
set -euo pipefail
cd "$(dirname "$0")/.."

python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt

if [ ! -x /usr/bin/chromium ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
fi

ruff check .
ruff format --check .
python -m pytest -n 2 --dist loadfile "$@"
