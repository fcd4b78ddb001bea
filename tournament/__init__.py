"""Duplicate Gin: the Django project and application."""

from importlib import metadata

try:
    __version__ = metadata.version("duplicate-gin")
except metadata.PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"
