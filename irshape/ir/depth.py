"""How deep OpenVINO's reader nests bodies (Loop, If, TensorIterator in bodies of their own),
for the files nested past what irshape's parser reads.

irshape's parser, libxml2, reads 2048 XML levels (with its XML_PARSE_HUGE option): bodies
nested 680 deep (:data:`irshape.ir.parse.MAX_BODY_NESTING`). OpenVINO's parser, pugixml, has no
depth limit, but its IR reader builds each body in a recursive call, on the thread's stack: by
experiment (``tests/differential/test_control_flow.py``'s nested Ifs read with ``read_model``
under ``ulimit -s``) 80 nested Ifs read and 81 crash (SIGSEGV) with a 256 KiB stack, 166 and
167 with 512 KiB, 330 and 345 with 1 MiB (the crash comes at once, while the bodies are
built): 86 levels a 256 KiB (2.98 KiB a level) after 16 KiB of its own, so 2,746 with the
usual 8 MiB. Its time grows with about the depth's cube (2.6 s at 100, 224 s at 400). So a file
nested past 680 deep is one OpenVINO reads, slowly, up to its stack's depth, and crashes on
beyond it: irshape says which, from its own process's stack limit (the one OpenVINO would run
with on this machine).
"""

from __future__ import annotations

import re
import resource

from irshape.ir.model import Layer

_LEVELS_PER_256_KIB = 86  # (512 KiB - 256 KiB) held 166 - 80 levels more
_BASE_BYTES = 16 * 1024  # what the stack holds before the first body (fits both: 80 and 166)
_BODY_TAG = re.compile(rb"<(/?)(?:body|then_body|else_body)\b[^>]*?(/?)>")


def body_nesting(data: bytes) -> int:
    """How many bodies deep the file nests at its deepest: a linear scan of the body tags (no
    XML parser reads the file: it is past the depth the parser reads)."""
    depth = deepest = 0
    for match in _BODY_TAG.finditer(data):
        closing, empty = match.groups()
        if closing:
            depth = max(depth - 1, 0)
        elif not empty:
            depth += 1
            deepest = max(deepest, depth)
    return deepest


def stack_bytes() -> int | None:
    """This process's stack limit (``ulimit -s``), None when unlimited."""
    soft, _ = resource.getrlimit(resource.RLIMIT_STACK)
    return None if soft == resource.RLIM_INFINITY else soft


def openvino_nesting_limit(stack: int | None) -> int | None:
    """The deepest nesting of bodies OpenVINO's reader builds on a stack of ``stack`` bytes
    (None: no limit), give or take a level or two: what else the stack holds (the environment,
    the paths) moves it from run to run."""
    if stack is None:
        return None
    return max((stack - _BASE_BYTES) * _LEVELS_PER_256_KIB // (256 * 1024), 0)


def deepest_bodies(layers: list[Layer]) -> tuple[int, Layer | None]:
    """How many bodies deep the layers nest at their deepest, and the outer layer whose bodies
    nest so (None when no layer has a body). Iterative: the nesting may be 680 deep."""
    deepest, outer = 0, None
    for top in layers:
        if top.subgraphs is None:
            continue
        pending = [(top, 1)]
        while pending:
            layer, nesting = pending.pop()
            if nesting > deepest:
                deepest, outer = nesting, top
            if layer.subgraphs is not None:
                pending += [
                    (inner, nesting + 1)
                    for body in layer.subgraphs.bodies.values()
                    for inner in body.layers
                    if inner.subgraphs is not None
                ]
    return deepest, outer
