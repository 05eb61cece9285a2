#!/usr/bin/env bash
# The Python client as its users get it, against a running API:
#   1. lints (ruff) and type-checks (mypy --strict) the hand-written code and the tests;
#   2. builds the wheel (python -m build, hatchling) into a temporary directory;
#   3. installs that wheel — not the source tree, not editable — into a FRESH virtualenv, with
#      pytest (clients/python/requirements-test.txt), both from PyPI;
#   4. runs clients/python/tests there against <base_url>.
#
#   SCHOOL_SEARCH_EMAIL=… SCHOOL_SEARCH_PASSWORD=… scripts/clients/python-test.sh http://127.0.0.1:3000 [pytest args…]
#
# The credentials are an existing user's; with SCHOOL_SEARCH_REQUIRE=1 their absence fails the
# live tests instead of skipping them. Exit status: pytest's (or 1 for an earlier step).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD

if [[ $# -lt 1 ]]; then
  echo "usage: $0 <base_url> [pytest args…]   (credentials in SCHOOL_SEARCH_EMAIL / SCHOOL_SEARCH_PASSWORD)" >&2
  exit 2
fi
export SCHOOL_SEARCH_BASE_URL=$1
shift

bash scripts/clients/python-setup.sh
TOOLS=$ROOT/.venv-clients/bin

# Settings in clients/python/pyproject.toml; the generated package is excluded there. No caches
# are written into the tree.
(
  cd clients/python
  "$TOOLS/ruff" check --no-cache --quiet .
  "$TOOLS/ruff" format --no-cache --check --quiet .
  "$TOOLS/mypy" --cache-dir=/dev/null school_search_client tests
)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --no-isolation: build with the pinned hatchling of .venv-clients rather than whatever PyPI
# serves today; the wheel's contents are the same either way.
"$TOOLS/python" -m build --wheel --no-isolation --outdir "$work/dist" clients/python >"$work/build.log" 2>&1 || {
  cat "$work/build.log" >&2
  exit 1
}
wheel=$(ls "$work"/dist/*.whl)
echo "python-test: built ${wheel##*/}"

python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "$wheel" -r clients/python/requirements-test.txt
installed=$("$work/venv/bin/python" -c 'import school_search_client as p; print(p.__file__)')
case $installed in
  "$work/venv/"*) echo "python-test: testing the installed package ($("$work/venv/bin/python" -m pip freeze | tr '\n' ' '))" ;;
  *) echo "python-test: expected the wheel's package in the fresh venv, imported $installed" >&2; exit 1 ;;
esac

# From the temporary directory: nothing of the source tree is importable from the working directory.
cd "$work"
"$work/venv/bin/python" -m pytest "$ROOT/clients/python/tests" "$@"
