#!/usr/bin/env bash
# The slow check of the image recipe (15-30 minutes and several GB the first time, a minute or two once cached; not part of ./bootstrap.sh test):
# image-build/install.sh, through the pi-gen stage's own scripts, in a clean Debian bookworm root
# made here with debootstrap, offline from a folder of wheels; then `openclaw doctor` and
# `openclaw models verify --configured` inside it. Needs root, debootstrap and systemd-nspawn
# (./bootstrap.sh test installs both) and a set-up checkout (./bootstrap.sh setup). The base root
# and the wheels are cached in ~/.cache/openclaw/clean-root; the logs go to tests/artifacts/clean-root/.
set -euo pipefail
cd "$(dirname "$0")/.."
exec env OPENCLAW_CLEAN_ROOT=1 nice -n 10 .venv/bin/python -m pytest -q -s -p no:cacheprovider \
  tests/image/test_clean_root.py "$@"
