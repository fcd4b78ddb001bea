"""A whole tournament as one JSON file and back (docs/formats.md, "Tournament file"):
``export.export_tournament``, ``import_.import_tournament``, the JSON Schema in
``schema.py``; the commands ``export_tournament`` and ``import_tournament``."""
