"""Tools that build the appliance's model files from synthetic and recorded speech.

Nothing here runs on the appliance: the Pi image installs ``appliance`` only, and the files these
tools write are committed under ``models/`` with their checksums in ``models/manifest.toml``.
"""
