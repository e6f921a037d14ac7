#!/bin/bash -e
# On the build host: copy the repository (without its venv and caches) into the image.
SRC="${OPENCLAW_SRC:?set OPENCLAW_SRC to the repository in pi-gen/config}"
install -d "${ROOTFS_DIR}/opt/openclaw/src"
rsync -a --delete --exclude .git --exclude .venv --exclude var --exclude 'bench/out' \
	--exclude 'tests/artifacts' --exclude '__pycache__' "${SRC}/" "${ROOTFS_DIR}/opt/openclaw/src/"
install -m 0644 files/openclaw.toml "${ROOTFS_DIR}/opt/openclaw/src/image-build/files/openclaw.toml"
