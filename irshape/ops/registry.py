"""The one registry of ops: what op TYPE in opset N is, its declaration and shape function.

A layer's ``type`` and ``version`` name an op version through OpenVINO's opset tables
(:mod:`irshape.ops.opsets`); that version's declaration is ``irshape/schemas/<Op>-<version>.toml``,
and the declaration names the family module of :mod:`irshape.shapes` and the function in it
that infers the op. Family modules are imported when a file first uses one of their ops, so
start-up does not grow with the number of ops.
"""

from __future__ import annotations

import functools
from importlib import import_module
from typing import cast

from irshape.ops import opsets
from irshape.ops.interface import ShapeFunction
from irshape.ops.schema import OpSchema, declaration_files, find_declaration, load_declaration


@functools.lru_cache(maxsize=1024)  # asked for every layer; a file has few (type, version) pairs
def lookup(op_type: str | None, version: str | None = None) -> OpSchema | None:
    """The declaration of the op a layer of ``op_type`` and ``version`` is, or None when irshape
    has none. A version that names no opset holding the op (a fragment without one, or a
    version OpenVINO rejects: IRS403) falls back to the op's newest version."""
    ref = resolve(op_type, version)
    if ref is None:
        return None
    name, op_version = ref
    file_name = f"{name}-{op_version}.toml"
    return find_declaration(file_name)


def resolve(op_type: str | None, version: str | None = None) -> tuple[str, int] | None:
    """The op version (OpenVINO's name of the op, and its version) that :func:`lookup` takes a
    layer of ``op_type`` and ``version`` for, whether irshape declares it or not; None when
    the type is in no opset."""
    if not op_type:
        return None
    ref = opsets.op_version(op_type, version) if version else None
    return opsets.latest_version(op_type) if ref is None else ref


def declared_versions(op_type: str) -> list[OpSchema]:
    """Every declaration of ``op_type`` (any case), oldest first."""
    name = opsets.canonical_type(op_type)
    if name is None:
        return []
    found = [f for f in declaration_files() if f.rsplit("-", 1)[0] == name]
    return sorted((load_declaration(f) for f in found), key=lambda schema: schema.version)


def all_declarations() -> list[OpSchema]:
    return [load_declaration(name) for name in sorted(declaration_files())]


@functools.cache
def shape_function(family: str, function: str) -> ShapeFunction:
    """The shape function a declaration names, importing its family module on first use."""
    module = import_module(f"irshape.shapes.{family}")
    return cast(ShapeFunction, getattr(module, function))


def markdown_table() -> str:
    """Every op version irshape infers, with its family and the opsets that hold it: the table
    of docs/ops.md (``python tools/make_ops_doc.py`` writes it; a test keeps it current)."""
    rows = ["| op | family | opsets | spec |", "|---|---|---|---|"]
    for schema in sorted(all_declarations(), key=lambda s: (s.op.lower(), s.version)):
        held = sorted(
            n
            for n in opsets.opsets_of(schema.op)
            if opsets.op_version(schema.op, f"opset{n}") == (schema.op, schema.version)
        )
        spans = _spans(held)
        link = f"[spec]({schema.spec})" if schema.spec else ""
        rows.append(f"| {schema.name} | {schema.family} | {spans} | {link} |")
    return "\n".join(rows) + "\n"


def _spans(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``opset1-3, opset5``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(f"opset{a}" if a == b else f"opset{a}-{b}" for a, b in runs)
