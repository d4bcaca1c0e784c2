#!/usr/bin/env bash
# Schemathesis against a live server: start uvicorn on a free port, wait for /healthz, run
# `st run` with every check and every phase (the contract's examples, coverage, fuzzing, the
# stateful phase along the contract's links), with the hooks of tests/support/st_hooks.py that put
# real states and actions in the generated requests; then print the share of requests that
# reached a rule verdict per operation (tests/support/st_tally.py), stop the server, and exit 1 if
# st failed or validate, apply, legal-actions or suggest reached half or less.
# Uses .venv/bin if it exists (as .ci/run makes it), else the tools on PATH.
set -uo pipefail
cd "$(dirname "$0")/.."

BIN=.venv/bin
[ -x "$BIN/uvicorn" ] || BIN="$(dirname "$(command -v uvicorn)")"
PY="$BIN/python"
[ -x "$PY" ] || PY=python3

PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
LOG="$(mktemp -t referee-live.XXXXXX.log)"

env -u REDIS_URL "$BIN/uvicorn" --factory service.api.app:create_app --host 127.0.0.1 --port "$PORT" \
  --workers 1 --log-level warning >"$LOG" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null; wait "$SERVER" 2>/dev/null' EXIT

for _ in $(seq 1 100); do
  if "$PY" -c "import urllib.request, sys; urllib.request.urlopen('http://127.0.0.1:$PORT/healthz', timeout=1)" \
      2>/dev/null; then
    break
  fi
  if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "the server did not start:"; cat "$LOG"; exit 1
  fi
  sleep 0.1
done

TALLY="$(mktemp -t referee-st-tally.XXXXXX.jsonl)"
PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=tests.support.st_hooks REFEREE_ST_TALLY="$TALLY" \
"$BIN/st" --config-file tests/api/schemathesis.toml run "http://127.0.0.1:$PORT/schema/openapi.json" \
  --checks all --max-examples "${ST_MAX_EXAMPLES:-40}" --max-time "${ST_MAX_TIME:-100}" \
  --wait-for-schema 10
CODE=$?
"$PY" -m tests.support.st_tally "$TALLY" || CODE=1

if grep -q "internal error" "$LOG"; then
  echo "the server logged internal errors:"; grep -A3 "internal error" "$LOG" | head -40
fi
exit "$CODE"
