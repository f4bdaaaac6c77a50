"""The values that cross the storage ports live in the core vocabulary, so no store imports privacy."""

from __future__ import annotations

import ast
from datetime import datetime
from pathlib import Path

import pytest

import memlane
from memlane import vocabulary
from memlane.privacy import audit, consent

STORE = Path(memlane.__file__).parent / "store"


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


@pytest.mark.parametrize("path", sorted(STORE.rglob("*.py")), ids=lambda p: str(p.relative_to(STORE)))
def test_no_store_module_imports_privacy(path: Path) -> None:
    assert not [m for m in imported_modules(path) if m.startswith("memlane.privacy")]


def test_the_store_package_has_modules_to_check() -> None:
    assert len(list(STORE.rglob("*.py"))) > 5


@pytest.mark.parametrize("name", ["AuditEntry", "ConsentSettings", "MemoryQuery", "ScoredId", "SealedText"])
def test_the_port_values_are_defined_once_in_the_vocabulary(name: str) -> None:
    defined = [
        path
        for path in Path(memlane.__file__).parent.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name == name
    ]
    assert defined == [Path(vocabulary.__file__)]


def test_privacy_uses_the_vocabulary_types() -> None:
    assert audit.entry("u1", "write", datetime(2024, 1, 1)).__class__ is vocabulary.AuditEntry
    assert consent.categories(["name"]) == ("name",)


def test_the_public_names_are_the_vocabulary_types() -> None:
    assert memlane.AuditEntry is vocabulary.AuditEntry
    assert memlane.ConsentSettings is vocabulary.ConsentSettings
