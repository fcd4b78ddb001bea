"""A whole tournament as one JSON file and back (docs/formats.md, "Tournament file"):
``export.export_tournament``, ``import_.import_tournament`` (which reads with ``read.py``,
checks with ``validator.py``, ``check_texts.py``, ``check.py`` and ``check_rounds.py``, and
writes with ``write.py``), the JSON Schema in ``schema.py``; the commands
``export_tournament`` and ``import_tournament``."""
