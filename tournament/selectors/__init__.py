"""Reads that pages, PDFs and services share, each with its own select/prefetch, so no view
builds a query of its own."""
