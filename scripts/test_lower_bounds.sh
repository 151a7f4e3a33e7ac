#!/usr/bin/env bash
# Check that the lower bounds in requirements.txt are true: build a virtual
# environment with every runtime dependency pinned to its lower bound
# (`streamlit>=1.62,<2` becomes `streamlit==1.62`), the test tools of
# requirements-dev.txt on top, and run the page tests (AppTest) and the unit
# tests there. Browser tests are left to scripts/test.sh (the pages they drive
# are the same).
#
# Then the other end of the NumPy range: a second environment ($VENV-numpy1) with
# the highest versions pip picks beside numpy<2, where scripts/check_runtime.py
# imports and uses every dependency (a package that admits NumPy 1.x in its
# metadata but fails with it at import shows up there).
#
#   bash scripts/test_lower_bounds.sh              # python3, .venv-lower-bounds
#   PYTHON=python3.13 VENV=.venv-lb-3.13 bash scripts/test_lower_bounds.sh
#   bash scripts/test_lower_bounds.sh tests/pages  # extra arguments: pytest's paths/options
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
VENV="${VENV:-.venv-lower-bounds}"

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
venv_python="$VENV/bin/python"

# requirements.txt -> constraints pinning each package to its lower bound
constraints="$VENV/lower-bounds.txt"
"$venv_python" - requirements.txt >"$constraints" <<'EOF'
import re
import sys

for line in open(sys.argv[1], encoding="utf-8"):
    requirement = line.split("#", 1)[0].strip()
    if not requirement:
        continue
    match = re.fullmatch(r"([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(.*)", requirement)
    lower = re.search(r">=\s*([^,\s]+)", match.group(3)) if match else None
    if lower is None:
        sys.exit(f"requirements.txt: no lower bound (>=) in {requirement!r}")
    print(f"{match.group(1)}=={lower.group(1)}")
EOF
echo "Lower bounds: $(tr '\n' ' ' <"$constraints")"

"$venv_python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$venv_python" -m pip install --quiet --disable-pip-version-check \
  -c "$constraints" -r requirements-dev.txt
"$venv_python" -m pip freeze --disable-pip-version-check \
  | grep -iE "^($(cut -d= -f1 "$constraints" | paste -sd'|'))==" \
  | sed 's/^/installed: /'

if [ "$#" -eq 0 ]; then
  # unit and page tests; the slow ones (exact endgame tables) already ran in scripts/test.sh
  set -- tests --ignore=tests/e2e -m "not slow"
fi
"$venv_python" -m pytest -q -p no:cacheprovider -n 2 --dist loadfile "$@"

# the highest set pip resolves with NumPy 1.x must import and work too
numpy1_venv="$VENV-numpy1"
if [ ! -x "$numpy1_venv/bin/python" ]; then
  "$PYTHON" -m venv "$numpy1_venv"
fi
"$numpy1_venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
  -r requirements.txt "numpy<2"
"$numpy1_venv/bin/python" scripts/check_runtime.py
