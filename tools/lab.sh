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
if [ -z "$serve" ]; then
  serve="$root/notebooks"
  mkdir -p "$serve"
  for chapter in "$root"/release/*/; do
    name="$(basename "$chapter")"
    [ -e "$serve/$name" ] || cp -r "$chapter" "$serve/$name"
  done
  # The Validate button runs `nbgrader validate` with the served folder's config: the course's Execute settings
  # (timeout, grade profile), rewritten on every start so they follow the course's nbgrader_config.py.
  "$root/.venv/bin/python" -m autograder.lab_config "$root" "$serve"
fi
# No news or update checks: the course works offline.
settings="$root/.venv/share/jupyter/lab/settings"
mkdir -p "$settings"
cat > "$settings/overrides.json" <<'JSON'
{"@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": false}}
JSON
export JUPYTER_TOKEN="${JUPYTER_TOKEN:-$(python3 -c 'import secrets; print(secrets.token_hex(16))')}"
echo "Frame by Frame: open http://127.0.0.1:${port}/lab?token=${JUPYTER_TOKEN}"
echo "(serving $serve; stop with Ctrl-C)"
# Started from the served folder, so nbgrader's Lab extension (the student "Validate" button) treats it as the
# course root; root may serve only on localhost, which is all this binds to.
cd "$serve"
allow_root=()
[ "$(id -u)" -eq 0 ] && allow_root=(--allow-root)
exec "$root/.venv/bin/jupyter" lab --no-browser --ip=127.0.0.1 --port="$port" --port-retries=0 "${allow_root[@]}" \
  --ServerApp.root_dir="$serve" --ServerApp.log_level=WARN
