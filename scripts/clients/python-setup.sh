#!/usr/bin/env bash
# Installs the Python client's pinned tools (clients/python/requirements-dev.txt: the generator,
# ruff, build + hatchling, mypy, pytest) into .venv-clients/ (gitignored; separate from .venv/,
# which is schemathesis's). Idempotent: when .venv-clients already has exactly these requirements,
# it does nothing. Used by `npm run setup:python-client` and by the other python-*.sh scripts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

VENV=.venv-clients
DIR=clients/python
# A stamp of the requirements the venv was last installed from: a changed pin reinstalls.
STAMP="$VENV/.requirements"

if [[ -x "$VENV/bin/openapi-python-client" && -f "$STAMP" ]] && cat "$DIR/requirements-dev.txt" "$DIR/requirements-test.txt" | cmp -s - "$STAMP"; then
  exit 0
fi

if ! command -v python3 >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq python3
fi
# The generated code needs Python 3.11 (typing.Self, datetime.fromisoformat with "Z").
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "python-setup: Python >= 3.11 needed, found $(python3 --version)" >&2; exit 1; }
# A venv without a working pip (e.g. left half-made by an interrupted run) is made anew.
if ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  rm -rf "$VENV"
  # Debian and Ubuntu ship venv (and ensurepip) separately from python3.
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    rm -rf "$VENV"
    apt-get update -qq && apt-get install -y -qq python3-venv
    python3 -m venv "$VENV"
  fi
fi
# Run from the requirements' folder: requirements-dev.txt includes requirements-test.txt by a relative path.
(cd "$DIR" && "../../$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r requirements-dev.txt)
cat "$DIR/requirements-dev.txt" "$DIR/requirements-test.txt" > "$STAMP"
echo "python-setup: $("$VENV/bin/openapi-python-client" --version) and friends installed in $VENV"
