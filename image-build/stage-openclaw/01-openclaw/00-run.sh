#!/bin/bash -e
# On the build host: copy the repository (without its venv, caches and test output) into the image.
# /etc/openclaw/openclaw.toml comes from the copy's image-build/files/openclaw.toml (install.sh).
SRC="${OPENCLAW_SRC:?set OPENCLAW_SRC to the repository in pi-gen/config}"
install -d "${ROOTFS_DIR}/opt/openclaw/src"
rsync -a --delete --exclude .git --exclude .venv --exclude var --exclude 'bench/out' \
	--exclude 'tests/artifacts' --exclude '__pycache__' --exclude '.mypy_cache' --exclude '.ruff_cache' \
	"${SRC}/" "${ROOTFS_DIR}/opt/openclaw/src/"
