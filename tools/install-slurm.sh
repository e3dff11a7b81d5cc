#!/usr/bin/env bash
# Test-only Debian packages for tests/test_slurm.py, which runs the README's Slurm example on a one-node cluster:
# slurmctld, slurmd, the client commands (sbatch, squeue, scontrol) and munge. As root it installs what is missing
# and starts no service (the test starts its own daemons in a temporary folder and stops them); otherwise it says
# what to install. Idempotent: a second run checks and returns.
set -euo pipefail
declare -A needed=([slurmctld]=slurmctld [slurmd]=slurmd [sbatch]=slurm-client [munged]=munge)
missing=()
for cmd in "${!needed[@]}"; do
  PATH="$PATH:/usr/sbin:/sbin" command -v "$cmd" >/dev/null 2>&1 || missing+=("${needed[$cmd]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "missing Debian packages: ${missing[*]} -- install them with: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
# A package's postinst starts its service unless policy-rc.d refuses: a munged or slurmd started here would
# outlive the tests. Where the machine has no policy of its own, refuse for the time of the install.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi
echo "installing Debian packages: ${missing[*]}"
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
