#!/usr/bin/env bash
# A virtual environment with the pinned python-holidays (sources/python-holidays/requirements.txt), made once
# under .venv-holidays/; prints its python's path. Used by `npm run extract:python-holidays` and the audit test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.venv-holidays"
req="$root/sources/python-holidays/requirements.txt"
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$req" "$venv/requirements.txt"; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  # One retry: where PyPI is out of reach (a local package index only), five retries with backoff take half a minute.
  "$venv/bin/pip" install --quiet --disable-pip-version-check --retries "${PIP_RETRIES:-1}" -r "$req" >&2
  cp "$req" "$venv/requirements.txt"
fi
echo "$venv/bin/python"
