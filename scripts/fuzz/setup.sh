#!/usr/bin/env bash
# Installs the pinned schemathesis (scripts/fuzz/requirements.txt) into the project-local
# virtualenv .venv/ (gitignored). Idempotent: when .venv already has exactly these requirements
# installed, it does nothing. Used by `npm run fuzz:setup`, .ci/run, and scripts/fuzz/main.ts (when
# .venv is missing).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

VENV=.venv
REQUIREMENTS=scripts/fuzz/requirements.txt
# A stamp of the requirements the venv was last installed from: a changed pin reinstalls.
STAMP="$VENV/.fuzz-requirements"

if [[ -x "$VENV/bin/schemathesis" && -f "$STAMP" ]] && cmp -s "$REQUIREMENTS" "$STAMP"; then
  echo "fuzz setup: $("$VENV/bin/schemathesis" --version) already installed in $VENV"
  exit 0
fi

if ! command -v python3 >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq python3
fi
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
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$REQUIREMENTS"
cp "$REQUIREMENTS" "$STAMP"
echo "fuzz setup: installed $("$VENV/bin/schemathesis" --version) in $VENV"
