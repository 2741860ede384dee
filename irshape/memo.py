"""Memos keyed by an object's identity, for objects that are not hashable (a dict) or whose
equality costs more than the work saved (an inference's outputs).

An ``id`` is reused once its object is gone, so each entry keeps its object and a lookup checks
it is the same one: a stale entry is never taken for another object's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

IdentityMemo = dict[int, tuple[K, V]]


def by_identity(memo: IdentityMemo[K, V], key: K, make: Callable[[K], V], bound: int | None = None) -> V:
    """``make(key)``, made once while ``memo`` keeps it; ``bound``: clear the memo when full."""
    kept = memo.get(id(key))
    if kept is not None and kept[0] is key:
        return kept[1]
    made = make(key)
    if bound is not None and len(memo) >= bound:
        memo.clear()
    memo[id(key)] = (key, made)
    return made
