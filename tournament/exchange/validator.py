"""A small validator of a tournament file against its JSON Schema (``schema.SCHEMA``), which
words each problem with the path in the file:
``rounds[3].matches[7].tables[1].hands[4].opponent_deadwood: must be a whole number from 0
to 98``.

It understands the part of JSON Schema the schema uses (type, const, enum, properties,
required, additionalProperties, items, minimum, maximum, minLength, maxLength, pattern,
minItems, maxItems); a node's ``description`` is how its message says what a value must
be. Each node is made into one function once (a big file has millions of values).
"""

from __future__ import annotations

import re

_TYPE_WORDS = {"object": "an object", "array": "a list", "string": "a text",
               "integer": "a whole number", "boolean": "true or false", "null": "null"}


def _words(value) -> str:
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 40 else text[:37] + "…"


def _expected(node: dict) -> str:
    """What a value must be, in words."""
    if "description" in node and "pattern" in node:
        return node["description"]
    types = node.get("type")
    types = [types] if isinstance(types, str) else list(types or [])
    if "integer" in types:
        low, high = node.get("minimum"), node.get("maximum")
        words = "a whole number"
        if low is not None and high is not None:
            words += f" from {low} to {high}"
        elif low is not None:
            words += f" of {low} or more"
        return words + (" or null" if "null" in types else "")
    return " or ".join(_TYPE_WORDS[t] for t in types)


def path_of(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text or "(the file)"


def validate(value, node: dict, path: list, errors: list[str], limit: int = 50) -> None:
    """Append to ``errors`` a message for each place ``value`` breaks ``node`` (at most
    about ``limit``)."""
    _checker(node)(value, path, errors, limit)


_CHECKERS: dict[int, object] = {}


def _checker(node: dict):
    """The node made into one function once (a big file has millions of values)."""
    found = _CHECKERS.get(id(node))
    if found is None:
        found = _CHECKERS[id(node)] = _build(node)
    return found


def _fail(path, errors, message) -> None:
    errors.append(f"{path_of(path)}: {message}")


def _build(node: dict):
    if "const" in node:
        const = node["const"]

        def check(value, path, errors, limit):
            if value != const or isinstance(value, bool):
                _fail(path, errors, f"must be {_words(const)}, not {_words(value)}")
        return check
    if "enum" in node:
        choices = frozenset(node["enum"])
        words = ", ".join("null" if c is None else c for c in node["enum"])

        def check(value, path, errors, limit):
            if isinstance(value, (bool, list, dict)) or value not in choices:
                _fail(path, errors, f"must be one of {words}, not {_words(value)}")
        return check
    types = node.get("type")
    if types is None:
        return lambda value, path, errors, limit: None
    types = (types,) if isinstance(types, str) else tuple(types)
    expected = _expected(node)
    nullable = "null" in types
    kind = next(t for t in types if t != "null")
    if kind == "integer":
        low, high = node.get("minimum"), node.get("maximum")

        def check(value, path, errors, limit):
            if value is None and nullable:
                return
            if type(value) is not int or (low is not None and value < low) or (
                    high is not None and value > high):
                _fail(path, errors, f"must be {expected}, not {_words(value)}")
        return check
    if kind == "string":
        shortest, longest = node.get("minLength", 0), node.get("maxLength")
        pattern = re.compile(node["pattern"]) if "pattern" in node else None

        def check(value, path, errors, limit):
            if value is None and nullable:
                return
            if type(value) is not str:
                _fail(path, errors, f"must be {expected}, not {_words(value)}")
            elif len(value) < shortest:
                _fail(path, errors, "must not be empty" if shortest == 1 else
                      f"must have at least {shortest} characters")
            elif longest is not None and len(value) > longest:
                _fail(path, errors, f"must have at most {longest} characters, not {len(value)}")
            elif pattern is not None and not pattern.search(value):
                _fail(path, errors, f"must be {expected}, not {_words(value)}")
        return check
    if kind == "boolean":
        def check(value, path, errors, limit):
            if type(value) is not bool:
                _fail(path, errors, f"must be {expected}, not {_words(value)}")
        return check
    if kind == "array":
        fewest, most = node.get("minItems", 0), node.get("maxItems")
        item = _checker(node["items"]) if "items" in node else None

        def check(value, path, errors, limit):
            if value is None and nullable:
                return
            if type(value) is not list:
                _fail(path, errors, f"must be {expected}, not {_words(value)}")
                return
            if len(value) < fewest:
                _fail(path, errors, f"must have at least {fewest} items, not {len(value)}")
            elif most is not None and len(value) > most:
                _fail(path, errors, f"must have at most {most} items, not {len(value)}")
            if item is not None:
                for index, element in enumerate(value):
                    if len(errors) >= limit:
                        return
                    path.append(index)
                    item(element, path, errors, limit)
                    path.pop()
        return check
    # an object
    children = {name: _checker(child) for name, child in node.get("properties", {}).items()}
    required = tuple(node.get("required", ()))
    strict = node.get("additionalProperties") is False

    def check(value, path, errors, limit):
        if value is None and nullable:
            return
        if type(value) is not dict:
            _fail(path, errors, f"must be {expected}, not {_words(value)}")
            return
        for name in required:
            if name not in value:
                errors.append(f"{path_of([*path, name])}: missing")
        for name, element in value.items():
            child = children.get(name)
            if child is None:
                if strict:
                    errors.append(f"{path_of([*path, name])}: unknown field")
                continue
            path.append(name)
            child(element, path, errors, limit)
            path.pop()
    return check
