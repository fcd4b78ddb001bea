"""What a database's schema is, read from the database itself, in a form two databases built
along different paths can be compared by: every table's columns and constraints, indexes,
triggers (and on PostgreSQL their functions), each as a sorted list of texts; the order of
columns in a table, which depends on the path, is left out. Django's own record of applied
migrations is left out too."""

from __future__ import annotations


def _items_of_create_table(sql: str) -> list[str]:
    """The parts of a CREATE TABLE between its outer brackets, split at the commas outside
    brackets and quotes: one per column and one per table constraint."""
    body = sql[sql.index("(") + 1:sql.rindex(")")]
    items, depth, quote, start = [], 0, None, 0
    for index, char in enumerate(body):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(body[start:index])
            start = index + 1
    items.append(body[start:])
    return sorted(" ".join(item.split()) for item in items)


def _sqlite(cursor) -> dict[str, list[str]]:
    cursor.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"
                   " WHERE name NOT LIKE 'sqlite_%' AND name != 'django_migrations'"
                   " AND tbl_name != 'django_migrations'")
    schema: dict[str, list[str]] = {}
    for kind, name, table, sql in cursor.fetchall():
        if kind == "table":
            schema[f"table {name}"] = _items_of_create_table(sql)
        else:  # index (its SQL, or None for a UNIQUE of the table), trigger
            schema[f"{kind} {name} on {table}"] = [" ".join((sql or "").split())]
    return schema


def _postgresql(cursor) -> dict[str, list[str]]:
    queries = {
        "column": """SELECT table_name, column_name || ' ' || data_type || ' '
                       || coalesce(character_maximum_length::text, '') || ' '
                       || is_nullable || ' ' || is_identity || ' '
                       || coalesce(column_default, '')
                     FROM information_schema.columns WHERE table_schema = 'public'""",
        "constraint": """SELECT conrelid::regclass::text, conname || ' '
                           || pg_get_constraintdef(oid)
                         FROM pg_constraint WHERE connamespace = 'public'::regnamespace""",
        "index": """SELECT tablename, indexdef FROM pg_indexes
                    WHERE schemaname = 'public'""",
        "trigger": """SELECT tgrelid::regclass::text, pg_get_triggerdef(oid)
                      FROM pg_trigger WHERE NOT tgisinternal""",
        "function": """SELECT proname, prosrc FROM pg_proc
                       WHERE pronamespace = 'public'::regnamespace""",
    }
    schema: dict[str, list[str]] = {}
    for kind, sql in queries.items():
        cursor.execute(sql)
        for owner, text in cursor.fetchall():
            if owner == "django_migrations":
                continue
            schema.setdefault(f"{kind}s of {owner}", []).append(" ".join(text.split()))
    return {key: sorted(texts) for key, texts in schema.items()}


def describe_schema(connection) -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            return _sqlite(cursor)
        if connection.vendor == "postgresql":
            return _postgresql(cursor)
    raise RuntimeError(f"no schema description for {connection.vendor}")


def differences(a: dict[str, list[str]], b: dict[str, list[str]]) -> list[str]:
    """What one schema has that the other has not, line by line ('-' a only, '+' b only)."""
    lines = []
    for key in sorted(set(a) | set(b)):
        only_a = sorted(set(a.get(key, [])) - set(b.get(key, [])))
        only_b = sorted(set(b.get(key, [])) - set(a.get(key, [])))
        lines += [f"- {key}: {text}" for text in only_a] + [f"+ {key}: {text}" for text in only_b]
    return lines

