#!/usr/bin/env bash
# Installs the Debian packages the course needs when they are missing: as root it installs them, otherwise it
# says what to install. Idempotent: a second run checks and returns.
set -euo pipefail
# dot: Graphviz renders the computational graphs (torchviz). bwrap: bubblewrap, the autograder's sandbox;
# setpriv (util-linux) drops the sandbox to an unprivileged user.
declare -A needed=([dot]=graphviz [bwrap]=bubblewrap [setpriv]=util-linux)
missing=()
for cmd in "${!needed[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${needed[$cmd]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages: ${missing[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "missing Debian packages: ${missing[*]} -- install them with: sudo apt-get install ${missing[*]}" >&2
  echo "(the course still runs; computational graphs are then drawn as text, and the autograder needs" \
       "--no-sandbox)" >&2
fi
