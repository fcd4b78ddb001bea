"""One date format per language (FORMAT_MODULE_PATH): templates write ``|date`` and
``|time`` without a format of their own, so every page shows a date the same way."""
