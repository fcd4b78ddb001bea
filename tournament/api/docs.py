"""``/api/docs``: the API's OpenAPI document as a page of the site (issue 27; docs/api.md).

Swagger UI, served here before, failed axe-core (no ``lang``, nested controls, contrast of
its method labels, no landmarks, heading order) and spoke English only. This renderer reads
the same OpenAPI document (``api.get_openapi_schema``) and writes it server-side into the
site's own layout: no script, the reader's language for every word of the page, and the
document's own text (summaries, descriptions, field names: English) marked ``lang="en"``.
The document itself stays at ``/api/openapi.json`` for any OpenAPI tool.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.shortcuts import render
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy
from ninja.openapi.docs import DocsBase

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse
    from ninja import NinjaAPI

# The routers' tags, in the reader's language (a tag not listed shows as written).
TAGS = {
    "tournaments": gettext_lazy("Tournaments"),
    "rounds and matches": gettext_lazy("Rounds and matches"),
    "standings": gettext_lazy("Standings"),
    "teams and players": gettext_lazy("Teams and players"),
    "travellers": gettext_lazy("Travellers"),
    "table devices": gettext_lazy("Table devices"),
}

# What each answer's status means, in the reader's language (the document's own words are
# HTTP's English reason phrases).
STATUSES = {
    "200": gettext_lazy("OK"),
    "201": gettext_lazy("Created"),
    "304": gettext_lazy("Not modified since the ETag sent"),
    "400": gettext_lazy("Refused: the request cannot be carried out"),
    "401": gettext_lazy("No valid device token"),
    "403": gettext_lazy("The device may not do this"),
    "404": gettext_lazy("Not found, or not public"),
    "409": gettext_lazy("Conflict: the data changed since the device read it"),
    "422": gettext_lazy("Invalid input"),
}

WHERE = {
    "path": pgettext_lazy("API parameter", "in the path"),
    "query": pgettext_lazy("API parameter", "in the query string"),
    "header": pgettext_lazy("API parameter", "in a header"),
}

_REF = "#/components/schemas/"
_CODE = re.compile(r"``(.+?)``|`([^`]+)`")


def prose(text: str | None) -> list[SafeString]:
    """The document's description as paragraphs: escaped, ``code`` and `code` as code."""
    paragraphs = []
    for block in re.split(r"\n\s*\n", (text or "").strip()):
        if not block.strip():
            continue
        parts, last = [], 0
        for match in _CODE.finditer(block):
            parts.append(conditional_escape(block[last:match.start()]))
            parts.append(format_html("<code>{}</code>", match.group(1) or match.group(2)))
            last = match.end()
        parts.append(conditional_escape(block[last:]))
        paragraphs.append(mark_safe(" ".join("".join(parts).split())))  # escaped above
    return paragraphs


def schema_anchor(name: str) -> str:
    return "schema-" + re.sub(r"[^A-Za-z0-9_-]", "-", name)


def type_html(schema: dict[str, Any] | None) -> SafeString:
    """A schema's type in the notation of the JSON it describes: ``integer``, a link to a
    named schema, ``TeamRef[]`` for an array, ``"home" | "away"`` for an enumeration,
    ``| null`` when it may be null."""
    schema = schema or {}
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(_REF)
        return format_html('<a href="#{}"><code>{}</code></a>', schema_anchor(name), name)
    if "anyOf" in schema:
        return mark_safe(" | ".join(type_html(part) for part in schema["anyOf"]))
    if "enum" in schema:
        return format_html_join(" | ", "<code>{}</code>",
                                ((_literal(value),) for value in schema["enum"]))
    kind = schema.get("type")
    if kind == "array":
        return format_html("{}<code>[]</code>", type_html(schema.get("items")))
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return format_html("<code>{{string: </code>{}<code>}}</code>",
                           type_html(schema["additionalProperties"]))
    if isinstance(kind, list):
        return format_html_join(" | ", "<code>{}</code>", ((k,) for k in kind))
    return format_html("<code>{}</code>", kind or "any")


def _literal(value) -> str:
    """A value as JSON writes it."""
    return json.dumps(value, ensure_ascii=False)


def limits(schema: dict[str, Any] | None) -> list[str]:
    """The schema's bounds, format and default in the reader's language."""
    schema = schema or {}
    parts: list[Any] = []
    for part in schema.get("anyOf", []):  # the bounds of an optional integer sit inside
        if part.get("type") != "null":
            parts.extend(limits(part))
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        parts.append(f"{low}–{high}")
    elif low is not None:
        parts.append(f"≥ {low}")
    elif high is not None:
        parts.append(f"≤ {high}")
    if "maxLength" in schema:
        parts.append(gettext("at most %(count)s characters") % {"count": schema["maxLength"]})
    if "format" in schema:
        parts.append(schema["format"])
    if "default" in schema and schema["default"] not in ("", None):
        parts.append(gettext("default %(value)s") % {"value": _literal(schema["default"])})
    return parts


@dataclass
class Field:
    name: str
    type: SafeString
    limits: list[str]
    required: bool
    description: list[SafeString]
    where: str = ""


@dataclass
class Answer:
    status: str
    meaning: str
    english: bool  # the meaning is the document's own words
    body: SafeString | None


@dataclass
class Operation:
    method: str
    path: str
    anchor: str
    summary: str
    description: list[SafeString]
    token: bool
    parameters: list[Field]
    body: SafeString | None
    answers: list[Answer]


@dataclass
class Tag:
    name: str
    label: str
    english: bool  # the label is the document's own word
    anchor: str
    operations: list[Operation] = field(default_factory=list)


@dataclass
class Schema:
    name: str
    anchor: str
    description: list[SafeString]
    fields: list[Field]
    type: SafeString | None  # a schema that is not an object of fields


def _body_type(content: dict[str, Any] | None) -> SafeString | None:
    for media in (content or {}).values():
        if "schema" in media:
            return type_html(media["schema"])
    return None


def _field(name, schema, *, required, description=None, where="") -> Field:
    schema = schema or {}
    return Field(name=name, type=type_html(schema), limits=limits(schema), required=required,
                 description=prose(description or schema.get("description")), where=where)


def _answer(status: str, answer: dict[str, Any]) -> Answer:
    meaning = STATUSES.get(status)
    return Answer(status=status, meaning=str(meaning or answer.get("description", "")),
                  english=meaning is None, body=_body_type(answer.get("content")))


def read_document(document: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document as the template walks it: tags in the order of their first
    operation, operations in the document's order, then every schema by name."""
    tags: dict[str, Tag] = {}
    for path, methods in document.get("paths", {}).items():
        for method, operation in methods.items():
            name = (operation.get("tags") or ["api"])[0]
            tag = tags.get(name)
            if tag is None:
                label = TAGS.get(name)
                tag = tags[name] = Tag(name=name, label=str(label or name),
                                       english=label is None,
                                       anchor="tag-" + re.sub(r"[^a-z0-9]+", "-", name.lower()))
            tag.operations.append(Operation(
                method=method.upper(), path=path,
                anchor="op-" + operation.get("operationId", f"{method}-{path}"),
                summary=operation.get("summary", ""),
                description=prose(operation.get("description")),
                token=bool(operation.get("security")),
                parameters=[_field(p["name"], p.get("schema"), required=p.get("required", False),
                                   description=p.get("description"),
                                   where=str(WHERE.get(p.get("in"), p.get("in"))))
                            for p in operation.get("parameters", [])],
                body=_body_type((operation.get("requestBody") or {}).get("content")),
                answers=[_answer(str(status), answer)
                         for status, answer in operation.get("responses", {}).items()],
            ))
    schemas = []
    for name, schema in sorted(document.get("components", {}).get("schemas", {}).items()):
        required = set(schema.get("required", []))
        fields = [_field(key, value, required=key in required)
                  for key, value in schema.get("properties", {}).items()]
        schemas.append(Schema(name=name, anchor=schema_anchor(name),
                              description=prose(schema.get("description")), fields=fields,
                              type=None if fields else type_html(schema)))
    info = document.get("info", {})
    return {"title": info.get("title", ""), "version": info.get("version", ""),
            "description": prose(info.get("description")), "tags": list(tags.values()),
            "schemas": schemas}


class OperationsPage(DocsBase):
    """django-ninja's docs hook: ``render_page`` answers ``GET /api/docs``."""

    template = "api/docs.html"

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        document = api.get_openapi_schema(path_params=kwargs)
        context = read_document(document)
        context["openapi_url"] = reverse(f"{api.urls_namespace}:openapi-json", kwargs=kwargs)
        return render(request, self.template, context)
