"""Slotted record classes without the start-up cost of dataclasses.

``@dataclass`` compiles each class's methods with ``exec`` when its module is imported: ~0.4 ms
a class, ~0.7 ms frozen with slots (a NamedTuple, ~0.2 ms). irshape has some thirty records on
the path of every ``irshape check``, which cost ~13 ms of a start that must stay near a bare
Python's ~25 ms.
A record spells out its ``__slots__`` and ``__init__`` (the hot ones are built 100,000 times
for a large model, so they stay plain code) and inherits equality, ``repr``, ``replace`` and
pickling from :class:`Record`, which finds the fields from ``__slots__`` and annotations.
"""

from __future__ import annotations

import inspect  # loaded by lxml in any case
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, Self

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}

set_field = object.__setattr__
"""How a :class:`FrozenRecord`'s ``__init__`` sets its fields: ``set_field(self, "name", value)``."""


class Record:
    """Fields are the annotated ``__slots__`` of the class and its bases, base fields first,
    each class's in the order of its annotations."""

    __slots__ = ()
    __hash__: ClassVar[None] = None  # type: ignore[assignment]  # mutable, so unhashable

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(
                name
                for klass in reversed(cls.__mro__)
                for name in inspect.get_annotations(klass)
                if name in klass.__dict__.get("__slots__", ())
            )
        return names

    def field_values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.field_names())

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied (as ``dataclasses.replace``)."""
        unknown = changes.keys() - set(self.field_names())
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        return _rebuild(type(self), tuple(changes.get(n, getattr(self, n)) for n in self.field_names()))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self.field_values() == other.field_values()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.field_names())
        return f"{type(self).__qualname__}({fields})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuild, (type(self), self.field_values())


class FrozenRecord(Record):
    """A record that cannot change after ``__init__``, which sets fields with ``object.__setattr__``."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(self.field_values())

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: use .replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")


class TupleRecord(tuple[Any, ...]):
    """A record written as a tuple, for the records made many times at every start or compared
    whole (a tensor's :class:`~irshape.ops.interface.Value`, a diagnostic's
    :class:`~irshape.diagnostics.Rule`): made in one C call (``tuple.__new__``) where a
    :class:`FrozenRecord` sets each field with a call, its fields read in C. A named tuple
    written out: ``typing.NamedTuple`` would compile its annotations and its ``__new__`` at
    every start. Compared, hashed, pickled and shown by its fields, and immutable; read as a
    :class:`Record` is (``field_names``, ``field_values``, ``replace``) and as a named tuple
    (``_fields``, ``_replace``).

    A subclass names its ``_fields``, reads each with :func:`tuple_field` and makes itself in
    ``__new__`` with ``tuple.__new__(cls, fields)``."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return cls._fields

    def field_values(self) -> tuple[Any, ...]:
        return tuple(self)

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied (as a :class:`Record`'s ``replace``)."""
        unknown = changes.keys() - set(self._fields)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        return self._replace(**changes)

    def _replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` applied (a named tuple's ``_replace``)."""
        made = tuple.__new__(type(self), map(changes.pop, self._fields, self))
        if changes:
            raise ValueError(f"Got unexpected field names: {list(changes)!r}")
        return made

    def __getnewargs__(self) -> tuple[Any, ...]:  # pickled and copied by its fields
        return tuple(self)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={field!r}" for name, field in zip(self._fields, self, strict=True))
        return f"{type(self).__name__}({fields})"


def tuple_field(index: int) -> Any:
    """A :class:`TupleRecord`'s field: its element ``index``, read in C (as a named tuple's)."""
    return property(itemgetter(index))


if TYPE_CHECKING:  # the type checker's only: a TypeVar made at every start cost ~40k instructions
    from typing import TypeVar

    _R = TypeVar("_R", bound=Record)


def _rebuild(cls: type[_R], values: tuple[Any, ...]) -> _R:
    record = object.__new__(cls)
    for name, value in zip(cls.field_names(), values, strict=True):
        set_field(record, name, value)
    return record
