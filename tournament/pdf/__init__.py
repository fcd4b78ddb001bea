"""Printed documents (reportlab): one renderer class per document, one module each."""
