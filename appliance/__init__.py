"""OpenClaw bench appliance: an offline knowledge appliance for engineering workbenches."""

__version__ = "0.1.0"
