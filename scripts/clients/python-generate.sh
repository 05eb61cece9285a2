#!/usr/bin/env bash
# Generates the Python client's low-level package, clients/python/school_search_client/_generated/,
# from openapi/openapi.yaml with the pinned openapi-python-client (settings in
# clients/python/openapi-python-client.yaml). Never edit _generated/ by hand: run this.
#
#   scripts/clients/python-generate.sh           rewrite _generated/   (npm run generate:python)
#   scripts/clients/python-generate.sh --check   exit 1 when _generated/ is not what the contract
#                                                generates now          (npm run check:python-client)
#
# Any generator warning fails the run (--fail-on-warning): a warning means part of the contract
# would silently be missing from the client.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

bash scripts/clients/python-setup.sh
export PATH="$PWD/.venv-clients/bin:$PATH" # the generator's post-hooks run `ruff`

TARGET=clients/python/school_search_client/_generated
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! openapi-python-client generate --path openapi/openapi.yaml --meta none \
  --config clients/python/openapi-python-client.yaml --output-path "$work/_generated" \
  --fail-on-warning >"$work/log" 2>&1; then
  cat "$work/log" >&2
  echo "python-generate: openapi-python-client failed (see above); nothing was changed" >&2
  exit 1
fi
# Byte-code caches from the post-hooks are not part of the output.
find "$work/_generated" -name __pycache__ -type d -prune -exec rm -rf {} +

if [[ "${1:-}" == "--check" ]]; then
  if ! diff -r -u -x __pycache__ "$TARGET" "$work/_generated" >"$work/diff"; then
    echo "check:python-client: $TARGET is stale; run \`npm run generate:python\` and commit the result:" >&2
    head -n 60 "$work/diff" >&2
    exit 1
  fi
  echo "check:python-client: $TARGET is up to date with openapi/openapi.yaml"
else
  rm -rf "$TARGET"
  mv "$work/_generated" "$TARGET"
  echo "generate:python: wrote $TARGET"
fi
