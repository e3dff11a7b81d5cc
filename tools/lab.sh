#!/usr/bin/env bash
# `make lab`: JupyterLab on the student notebooks. The release copies are copied once into notebooks/
# (gitignored) so a student's work never collides with the committed release/; existing work is never
# overwritten; notebooks/nbgrader_config.py is generated. Usage: lab.sh [PORT] [FOLDER]; FOLDER (tests use it)
# is served as it is, instead of notebooks/.
# Set JUPYTER_TOKEN to choose the token.
set -euo pipefail
port="${1:-8888}"
root="$(cd "$(dirname "$0")/.." && pwd)"
serve="${2:-}"
# Folders that get the course's Execute settings (timeout, grade profile) for Validate, rewritten on every start
# so they follow the course's nbgrader_config.py.
configured=()
if [ -z "$serve" ]; then
  serve="$root/notebooks"
  mkdir -p "$serve"
  for chapter in "$root"/release/*/; do
    name="$(basename "$chapter")"
    [ -e "$serve/$name" ] || cp -r "$chapter" "$serve/$name"
  done
  configured=("$serve")
fi
# A port already taken fails the server only after the URL is printed: check first.
if ! "$root/.venv/bin/python" -c 'import socket, sys; socket.create_server(("127.0.0.1", int(sys.argv[1]))).close()' \
    "$port" 2>/dev/null; then
  echo "make lab: port $port is already in use (another Jupyter?); pick another: make lab LAB_PORT=$((port + 1))" >&2
  exit 1
fi
# The student's Lab (autograder/lab_config.py): of nbgrader's tools only Validate; no news or update checks.
settings="$root/build/student-lab"
"$root/.venv/bin/python" -m autograder.lab_config "$root" "$settings" "${configured[@]}"
export JUPYTER_TOKEN="${JUPYTER_TOKEN:-$(python3 -c 'import secrets; print(secrets.token_hex(16))')}"
echo "Frame by Frame: open http://127.0.0.1:${port}/lab?token=${JUPYTER_TOKEN}"
echo "(serving $serve; stop with Ctrl-C)"
# Started from the served folder, so nbgrader's Lab extension (the student "Validate" button) treats it as the
# course root; root may serve only on localhost, which is all this binds to.
cd "$serve"
allow_root=()
[ "$(id -u)" -eq 0 ] && allow_root=(--allow-root)
exec "$root/.venv/bin/jupyter" lab --no-browser --ip=127.0.0.1 --port="$port" --port-retries=0 "${allow_root[@]}" \
  --config="$settings/server.json" --LabApp.app_settings_dir="$settings/lab" \
  --ServerApp.root_dir="$serve" --ServerApp.log_level=WARN
