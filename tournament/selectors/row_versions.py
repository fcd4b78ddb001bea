"""A row's version as PostgreSQL keeps it, in SQL: what the reads kept between requests
(``selectors.stage_results``, ``selectors.field_kept``) hash into a round's digest.

``xmin`` and ``cmin`` are the transaction and the command that wrote the row as it is now:
any write of the row, by any process and any door, changes them, and a rolled-back write
leaves them as they were. (PostgreSQL only: SQLite has no row versions.)
"""


def row_version(alias: str) -> str:
    """The SQL text of the version of the row ``alias`` (NULL for a row a LEFT JOIN did
    not find)."""
    return f"{alias}.xmin || ':' || {alias}.cmin"
