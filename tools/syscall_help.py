"""What the command line tells a person about syscalls: the table's arguments in words, and
"did you mean" for a mistyped syscall name or enum value.

Hints are printed by the command line only; the kernel's refusal (and so the journal) is unchanged.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
import msgspec.inspect as mi

from kernel.abi import SyscallSpec

_ENUM_DETAIL = re.compile(r"Invalid enum value '(?P<value>.*)' - at `\$(?P<path>[^`]*)`")
_UNKNOWN_DETAIL = re.compile(r"unknown field `(?P<value>[^`]*)`(?: - at `\$(?P<path>[^`]*)`)?")
_PATH_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def closest(word: str, choices: Iterable[str]) -> list[str]:
    """The choices that look most like ``word`` (case-insensitive), best first; at most two."""
    options = list(choices)
    by_lower = {option.lower(): option for option in options}
    return [by_lower[match] for match in difflib.get_close_matches(word.lower(), by_lower, n=2, cutoff=0.75)]


def syscall_hint(name: str, table: Sequence[str]) -> str:
    """A hint for a name that is not in the table."""
    matches = closest(name, table)
    listing = "`arvis syscalls` lists every syscall"
    return f"did you mean {' or '.join(matches)}? {listing}" if matches else listing


def type_words(info: mi.Type) -> str:
    """A field's type in a few words: ``str``, ``int 100..900``, ``one of A|B``, ``… or null``."""
    if isinstance(info, mi.UnionType):
        parts = [type_words(member) for member in info.types if not isinstance(member, mi.NoneType)]
        nullable = any(isinstance(member, mi.NoneType) for member in info.types)
        return " or ".join(parts) + (" or null" if nullable else "")
    if isinstance(info, mi.EnumType):
        return "one of " + "|".join(str(member.value) for member in info.cls)
    if isinstance(info, mi.LiteralType):
        return "one of " + "|".join(str(value) for value in info.values)
    if isinstance(info, mi.IntType):
        low = info.ge if info.ge is not None else info.gt
        high = info.le if info.le is not None else info.lt
        return (
            "int" if low is None and high is None else f"int {low if low is not None else ''}..{high or ''}"
        )
    if isinstance(info, mi.ListType):
        return f"list of {type_words(info.item_type)}"
    if isinstance(info, mi.DictType):
        return f"object of {type_words(info.value_type)}"
    if isinstance(info, mi.StructType):
        return f"object of {len(info.fields)} fields"
    names = {
        mi.StrType: "str",
        mi.BoolType: "bool",
        mi.FloatType: "number",
        mi.DateTimeType: "timestamp",
        mi.AnyType: "any",
    }
    return names.get(type(info), type(info).__name__.removesuffix("Type").lower())


def argument_rows(spec: SyscallSpec) -> list[dict[str, Any]]:
    """The request's fields: name, type in words, required, default."""
    info = mi.type_info(spec.request_type)
    assert isinstance(info, mi.StructType)
    rows: list[dict[str, Any]] = []
    for field in info.fields:
        default = None if field.required else field.default
        if default is msgspec.NODEFAULT:  # a default factory: say what it makes
            default = field.default_factory() if field.default_factory is not msgspec.NODEFAULT else None
        row = {"name": field.name, "type": type_words(field.type), "required": field.required}
        rows.append(row | {"default": msgspec.to_builtins(default)})
    return rows


def _field_type(info: mi.Type, path: str) -> mi.Type | None:
    """The type at a msgspec error path such as ``.items[0].tier``, or None when it cannot be found."""
    current: mi.Type = info
    for name, _index in _PATH_PART.findall(path):
        current = _unwrapped(current)
        if name:
            if not isinstance(current, mi.StructType):
                return None
            found = [field.type for field in current.fields if field.encode_name == name]
            if not found:
                return None
            current = found[0]
        elif isinstance(current, mi.ListType):
            current = current.item_type
        else:
            return None
    return _unwrapped(current)


def _unwrapped(info: mi.Type) -> mi.Type:
    """A nullable type's non-null member (``X | None`` → ``X``)."""
    if isinstance(info, mi.UnionType):
        members = [member for member in info.types if not isinstance(member, mi.NoneType)]
        if len(members) == 1:
            return members[0]
    return info


def args_hint(spec: SyscallSpec, detail: str) -> str | None:
    """For an ``invalid_args`` refusal: the field meant for an unknown one (``value``: ``value_ref``), or
    the valid values, and the closest one, for an "Invalid enum value"."""
    match = _ENUM_DETAIL.search(detail) or _UNKNOWN_DETAIL.search(detail)
    if match is None:
        return None
    path, word = match["path"] or "", match["value"]
    found, listing = _field_type(mi.type_info(spec.request_type), path), f"valid values for {path[1:]}:"
    if isinstance(found, mi.StructType):
        choices, listing = [field.encode_name for field in found.fields], f"{spec.name}{path} takes"
        if word == "value" and "value_ref" in choices:
            return 'a value goes in value_ref: "plain:VALUE" is the value itself, other text a reference'
    elif isinstance(found, mi.EnumType):
        choices = [str(member.value) for member in found.cls]
    elif isinstance(found, mi.LiteralType):
        choices = [str(value) for value in found.values]
    else:
        return None
    suggestion = closest(word, choices) or difflib.get_close_matches(word, choices, n=1)
    listing = f"{listing} {', '.join(choices)}"
    return f"did you mean {' or '.join(suggestion)}? {listing}" if suggestion else listing
