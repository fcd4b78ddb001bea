"""The staff area of a tournament, one module per part (see tournament/urls.py)."""
