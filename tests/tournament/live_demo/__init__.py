# A package, so that conftest.py's package-scoped demo (and the transaction it lives in)
# ends with this folder: without this file pytest would keep it open for the rest of the
# session, under every later test.
