"""Thin views: public pages, the director's staff area (and later entry and api)."""
