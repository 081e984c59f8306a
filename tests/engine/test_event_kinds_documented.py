"""``events.ALL_KINDS`` is the whole event vocabulary, and the trace-format page (docs/trace-files.md, which the
README links) names each kind.

Trace files are read by people and by their own scripts; a kind the engine emits but the docs do not name is a
column value nobody can look up.
"""

from __future__ import annotations

import re
from pathlib import Path

from loaderlab.engine import events

TRACE_FILES_DOC = Path(__file__).resolve().parents[2] / "docs" / "trace-files.md"


def test_all_kinds_holds_every_kind_constant_of_the_events_module_once():
    constants = {value for name, value in vars(events).items() if name.isupper() and isinstance(value, str)}
    assert len(events.ALL_KINDS) == len(set(events.ALL_KINDS))
    assert set(events.ALL_KINDS) == constants


def test_the_trace_files_doc_names_every_event_kind_in_its_kinds_paragraph():
    text = TRACE_FILES_DOC.read_text(encoding="utf-8")
    paragraph = text[text.index("Kinds, in pipeline order:"):]
    paragraph = paragraph[:paragraph.index("\n\n")]
    named = set(re.findall(r"`([a-z_]+)`", paragraph))
    assert set(events.ALL_KINDS) <= named, sorted(set(events.ALL_KINDS) - named)
