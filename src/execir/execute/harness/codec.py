"""Exact-type serialisation across the judge/candidate boundary, with mirrored identity (stdlib only).

A message carries one *graph*: ``{"n": nodes, "r": item}``. An *item* is a JSON scalar (None, bool,
str, finite float, int below 2**63) or ``[i]``, a reference to node ``i``. A *node* is a flat JSON
list ``[tag, ...]``; no JSON nesting deeper than a few levels, so any depth, cycles and shared
substructure (``[x, x]``) cross without recursion on either side.

Only exact types cross (no subclasses): ``None bool int float complex str bytes bytearray list tuple
dict set frozenset range``, ``collections.Counter OrderedDict defaultdict deque``, ``fractions.Fraction``,
``decimal.Decimal``, ``datetime.date time datetime timedelta timezone``, dict views, named tuples
(rebuilt as fresh ``namedtuple`` classes: no candidate methods), builtin type objects, and (candidate
side only) iterators, which the judge sees as remote handles (tag ``G``). Anything else is a
:class:`CodecError`. Decoding yields only these standard types, so no candidate code reaches the judge.

*Candidate side only* (a mirror with negative ids: the driver's replies), a value of another type
is looked at once more (:meth:`_Encoder.stand_in`): a class whose comparisons the candidate's program
wrote (:func:`own_dunder`) is an :class:`OwnValue` (the oracle's FAIL); an instance of a builtin
subclass without them (``IntEnum`` members, ``time.struct_time``, ``class L(list)``) crosses as a
fresh copy of its builtin value, made by the builtin's own method, so the tests compare what ``==``
would (a later in-place change of the candidate's original is not mirrored). Whatever the candidate
sends is its own claim: a plain value it could have returned itself.

*Mirroring.* Each side keeps a :class:`Mirror` of the mutable objects that crossed, keyed by a per-job
id (``mid``; the judge allocates positive ids, the candidate negative ones). A mutable node carries
its mid: the receiver updates that object in place (or creates it), so aliasing, in-place mutation of
arguments and results mutated after return behave as in one process. Before sending, a side diffs a
shallow snapshot (element identities) of every mirrored object and sends the state of those that
changed; an unchanged mirrored object is sent as ``["@", mid]``.

Node tags. Mutable (``[tag, mid, ...]``): ``l`` list, ``s`` set, ``d`` dict, ``C`` Counter, ``O``
OrderedDict (flat key/value items), ``D`` defaultdict ``[D, mid, factory, kv]``, ``Q`` deque ``[Q, mid,
maxlen, items]``, ``y`` bytearray (hex). Immutable (may reference only earlier immutable nodes): ``t``
tuple, ``z`` frozenset, ``b`` bytes, ``I`` big int (hex), ``c`` complex, ``n`` NaN (1: ``math.nan``
itself), ``T`` type, ``F`` Fraction, ``M`` Decimal, ``R`` range, ``da``/``ti``/``dt``/``td``/``tz``
datetime types, ``K``/``V``/``J`` keys/values/items view of a dict node, ``N`` named tuple
``[N, module, qualname, fields, items]``. Handles: ``@`` mirrored object, ``G`` remote iterator.
"""

from __future__ import annotations

import builtins
import collections
import datetime
import decimal
import fractions
import gc
import math
import operator
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

# Typing note: values are dispatched on their exact type held in a variable (``kind is tuple``), which
# mypy does not use to narrow ``value: object``, and ``typing.cast`` would import ``typing`` in the
# sandbox; so the ``# type: ignore[code]`` comments below mark accesses the exact-type dispatch makes safe.

MAX_NODES = 1 << 21
MAX_ITEMS = 1 << 23
MAX_FRACTION_BITS = 1 << 16
CHECK_EVERY = 32
"""Items decoded between two CPU-budget checks (a set insert can cost O(n) under hash collisions)."""
_BIG = 1 << 63
_NAN = math.nan
_is = operator.is_
_Counter, _OrderedDict, _defaultdict, _deque = collections.Counter, collections.OrderedDict, collections.defaultdict, collections.deque
_TYPE_NAMES = ("int", "float", "complex", "str", "bytes", "bytearray", "bool", "list", "tuple", "dict", "set", "frozenset", "object", "range")
_TYPES: dict[type, str] = {getattr(builtins, name): name for name in _TYPE_NAMES} | {type(None): "NoneType"}
_TYPES_BY_NAME = {name: kind for kind, name in _TYPES.items()}
_SCALARS = frozenset({type(None), bool, str, float, int})
_PLAIN = frozenset({type(None), bool, str})
_PLAIN_NUMBERS = _PLAIN | {int, float}
_MUTABLE: dict[type, str] = {list: "l", set: "s", dict: "d", _Counter: "C", _OrderedDict: "O", _defaultdict: "D", _deque: "Q", bytearray: "y"}
_MUTABLE_TAGS = {tag: kind for kind, tag in _MUTABLE.items()}
_MAPPING_TAGS = frozenset("dCOD")
_VIEWS: dict[type, str] = {type({}.keys()): "K", type({}.values()): "V", type({}.items()): "J"}
_VIEW_OF = {"K": dict.keys, "V": dict.values, "J": dict.items}
_TUPLE_DUNDERS = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__len__", "__getitem__", "__iter__", "__contains__")
_UNSET = object()
_PLAIN_OF: dict[type, Callable[..., object]] = {
    int: int.__int__,
    float: float.__float__,
    complex: complex.__complex__,
    str: str.__str__,
    bytes: bytes.__bytes__,
    bytearray: bytearray.copy,
    list: list.copy,
    tuple: lambda value: tuple.__getitem__(value, slice(None)),
    dict: dict.copy,
    set: set.copy,
    frozenset: frozenset.copy,
}
"""A builtin subclass's instance as a value of the builtin itself (a fresh exact-type copy)."""
_KNOWN = frozenset(_SCALARS | set(_MUTABLE) | set(_VIEWS) | {tuple, frozenset, bytes, complex, fractions.Fraction, decimal.Decimal, range, type})
_KNOWN |= {datetime.date, datetime.time, datetime.datetime, datetime.timedelta, datetime.timezone}
"""Exact types the encoder carries as themselves."""


class CodecError(ValueError):
    """A value that cannot cross the boundary (unsupported type, malformed, too large)."""


class OwnValue(CodecError):
    """A candidate's value whose class decides its own comparisons (see :func:`own_dunder`)."""


class BudgetExceeded(CodecError):
    """Decoding used more CPU than the candidate's budget (charged to the candidate)."""


class Budget:
    """Cumulative thread CPU one side may spend receiving and decoding (``None``: unlimited)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.limit = seconds
        self.used = 0.0
        self._since = 0.0

    def start(self) -> None:
        self._since = time.thread_time()

    def check(self) -> None:
        if self.limit is not None and self.used + time.thread_time() - self._since > self.limit:
            self.stop()
            raise BudgetExceeded(f"decoding the candidate's values took over {self.limit:g} s CPU")

    def stop(self) -> None:
        now = time.thread_time()
        self.used += now - self._since
        self._since = now


class Mirror:
    """One side's table of the mutable objects (and iterator handles) that crossed in this job."""

    def __init__(self, sign: int) -> None:
        self.sign = sign
        self.next = 1
        self.objects: dict[int, object] = {}
        self.mids: dict[int, int] = {}
        self.snaps: dict[int, object] = {}

    def add(self, obj: object, mid: int | None = None) -> int:
        if mid is None:
            mid, self.next = self.sign * self.next, self.next + 1
        self.objects[mid] = obj
        self.mids[id(obj)] = mid
        return mid

    def forget(self, mids: Iterable[object]) -> None:
        for mid in mids:
            obj = self.objects.pop(mid, None)  # type: ignore[call-overload]
            if obj is not None:
                self.mids.pop(id(obj), None)
                self.snaps.pop(mid, None)  # type: ignore[call-overload]

    def collect(self, held: int) -> list[int]:
        """Forget objects referenced only by this table (``held``: refcount seen in that case);
        parents come before children in the table, so one pass frees nested structure."""
        dropped = []
        objects = self.objects
        for mid in list(objects):
            obj = objects[mid]
            if sys.getrefcount(obj) <= held:
                del objects[mid]
                del self.mids[id(obj)]
                self.snaps.pop(mid, None)
                dropped.append(mid)
            obj = None
        return dropped

    def changed(self) -> set[int]:
        """Mids whose shallow state differs from the state last synchronised."""
        snaps = self.snaps
        return {mid for mid, obj in self.objects.items() if mid in snaps and not _same(snaps[mid], _snap(obj))}


def _snap(obj: object) -> object:
    kind = type(obj)
    if kind is bytearray:
        return bytes(obj)  # type: ignore[call-overload]
    if kind in (dict, _Counter, _OrderedDict, _defaultdict):
        return (list(obj), list(obj.values()), getattr(obj, "default_factory", None))  # type: ignore[attr-defined,call-overload]
    return list(obj)  # type: ignore[call-overload]


def _same(old: object, new: object) -> bool:
    if type(old) is list:
        return len(old) == len(new) and all(map(_is, old, new))  # type: ignore[arg-type,call-overload]
    if type(old) is tuple:
        return _same(old[0], new[0]) and _same(old[1], new[1]) and old[2] is new[2]  # type: ignore[index]
    return old == new


# ---- encoding ----------------------------------------------------------------------------------
def encode(value: object, mirror: Mirror | None = None) -> dict:
    """The graph of ``value``; with a mirror, also the state of every mirrored object that changed."""
    enc = _Encoder(mirror)
    if mirror is not None:
        enc.dirty = mirror.changed()
        for mid in sorted(enc.dirty):
            enc.visit(mirror.objects[mid])
    root = enc.item(value)
    enc.fill_all()
    return {"n": enc.nodes, "r": root}


class _Encoder:
    def __init__(self, mirror: Mirror | None) -> None:
        self.mirror = mirror
        self.dirty: set[int] = set()
        self.nodes: list = []
        self.memo: dict[int, int] = {}
        self.keep: list = []
        self.fills: list[tuple[int, object, object]] = []
        self.stand_ins: dict[int, tuple[object, object]] = {}
        self.project = mirror is not None and mirror.sign < 0

    def item(self, value: object) -> object:
        if self.project and type(value) not in _KNOWN:
            value = self.stand_in(value)
        if _inline(value):
            return value
        found = self.memo.get(id(value))
        return [found if found is not None else self.visit(value)]

    def _emit(self, node: list) -> int:
        self.nodes.append(node)
        if len(self.nodes) > MAX_NODES:
            raise CodecError("value has too many parts")
        return len(self.nodes) - 1

    def visit(self, root: object) -> int:
        """Assign node indices to ``root`` and everything below it, iteratively."""
        memo, keep = self.memo, self.keep
        stack: list[tuple[object, bool]] = [(root, False)]
        while stack:
            value, ready = stack.pop()
            if self.project and type(value) not in _KNOWN:
                value = self.stand_in(value)
                if _inline(value):
                    continue
            key = id(value)
            if key in memo:
                continue
            keep.append(value)
            mid = self.mirror.mids.get(key) if self.mirror is not None else None
            if mid is not None and mid not in self.dirty:
                memo[key] = self._emit(["@", mid])
                continue
            kind = type(value)
            if kind in _MUTABLE:
                self._mutable(value, kind, mid, stack)
            elif ready:
                memo[key] = self._emit(self._immutable(value, kind))
            else:
                kids = self._children(value, kind)
                if kids:
                    stack.append((value, True))
                    stack.extend((kid, False) for kid in kids)
                else:
                    memo[key] = self._emit(self._immutable(value, kind))
        return memo[id(root)]

    def stand_in(self, value: object) -> object:
        """Candidate side: the value the judge receives for one of a type outside the exact set: a
        builtin subclass becomes its builtin value (copied by the builtin's own method); named
        tuples and iterators stay (encoded as such); a class whose comparisons the candidate's
        program wrote is an :class:`OwnValue`; anything else stays (then refused as unsupported)."""
        key = id(value)
        found = self.stand_ins.get(key)
        if found is not None:
            return found[1]
        kind = type(value)
        if _is_named_tuple(value, kind) or _is_iterator(kind):
            return value
        name = own_dunder(kind)
        if name:
            raise OwnValue(f"{getattr(kind, '__qualname__', '?')} defines its own {name}"[:200])
        base = next((k for k in kind.__mro__ if k in _PLAIN_OF or k in _KNOWN), None)
        if base not in _PLAIN_OF:
            return value
        plain = _PLAIN_OF[base](value)
        self.stand_ins[key] = (value, plain)  # holds the original: its id stays unique in this graph
        return plain

    def _mutable(self, value: object, kind: type, mid: int | None, stack: list) -> None:
        if self.mirror is not None and mid is None:
            mid = self.mirror.add(value)
        index = self._emit([])
        self.memo[id(value)] = index
        snap = _snap(value)
        self.fills.append((index, value, snap))
        if self.mirror is not None:
            self.mirror.snaps[mid] = snap  # type: ignore[index]
        if type(snap) is list:
            kids = _nodal(snap)
        elif type(snap) is tuple:
            kids = _nodal(snap[0]) + _nodal(snap[1]) + ([snap[2]] if _factory(snap[2]) else [])
        else:
            kids = []
        stack.extend((kid, False) for kid in kids)
        self.nodes[index] = [_MUTABLE[kind], mid or 0]

    def _children(self, value: object, kind: type) -> list:
        if kind is tuple or kind is frozenset:
            return _nodal(value)  # type: ignore[arg-type]
        if kind in _VIEWS:
            return [_viewed(value)]
        if kind is fractions.Fraction:
            return [value.numerator, value.denominator]  # type: ignore[attr-defined]
        if kind is range:
            return [value.start, value.stop, value.step]  # type: ignore[attr-defined]
        if kind is datetime.datetime or kind is datetime.time:
            return [value.tzinfo] if value.tzinfo is not None else []  # type: ignore[attr-defined]
        if kind is datetime.timezone:
            return [value.utcoffset(None)]  # type: ignore[attr-defined]
        if _is_named_tuple(value, kind):
            return list(value)  # type: ignore[call-overload]
        return []

    def _immutable(self, value: object, kind: type) -> list:
        item = self.item
        if kind is int:
            return ["I", hex(value)]  # type: ignore[arg-type]
        if kind is float:
            return ["n", int(value is _NAN)]
        if kind is tuple:
            return ["t", [item(kid) for kid in value]]  # type: ignore[attr-defined]
        if kind is frozenset:
            return ["z", [item(kid) for kid in value]]  # type: ignore[attr-defined]
        if kind is bytes:
            return ["b", value.hex()]  # type: ignore[attr-defined]
        if kind is complex:
            return ["c", _real(value.real), _real(value.imag)]  # type: ignore[attr-defined]
        if kind in _VIEWS:
            return [_VIEWS[kind], item(_viewed(value))]
        if kind is fractions.Fraction:
            return ["F", item(value.numerator), item(value.denominator)]  # type: ignore[attr-defined]
        if kind is decimal.Decimal:
            return ["M", str(value)]
        if kind is range:
            return ["R", item(value.start), item(value.stop), item(value.step)]  # type: ignore[attr-defined]
        if kind is datetime.date:
            return ["da", value.year, value.month, value.day]  # type: ignore[attr-defined]
        if kind is datetime.time:
            v = value
            return ["ti", v.hour, v.minute, v.second, v.microsecond, item(v.tzinfo), v.fold]  # type: ignore[attr-defined]
        if kind is datetime.datetime:
            v = value
            return ["dt", v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond, item(v.tzinfo), v.fold]  # type: ignore[attr-defined]
        if kind is datetime.timedelta:
            return ["td", value.days, value.seconds, value.microseconds]  # type: ignore[attr-defined]
        if kind is datetime.timezone:
            return ["tz", item(value.utcoffset(None)), str(value.tzname(None))]  # type: ignore[attr-defined]
        if kind is type and value in _TYPES:
            return ["T", _TYPES[value]]
        if _is_named_tuple(value, kind):
            return ["N", str(kind.__module__), str(kind.__qualname__), [str(f) for f in kind._fields], [item(kid) for kid in value]]  # type: ignore[attr-defined]
        if self.mirror is not None and self.mirror.sign < 0 and _is_iterator(kind):
            return ["G", self.mirror.add(value)]
        raise CodecError(f"unsupported type {getattr(kind, '__module__', '?')}.{getattr(kind, '__qualname__', '?')}")

    def fill_all(self) -> None:
        item = self.item
        for index, value, snap in self.fills:
            node = self.nodes[index]
            tag = node[0]
            if tag == "y":
                node.append(snap.hex())  # type: ignore[attr-defined]
                continue
            if tag in _MAPPING_TAGS:
                mapping: tuple[list, list, object] = snap  # type: ignore[assignment]  # a mapping's snapshot: see _snap
                keys, values, factory = mapping
                if tag == "D":
                    node.append(item(factory) if _factory(factory) else None)
                flat: list = []
                for k, v in zip(keys, values):
                    flat.append(item(k))
                    flat.append(item(v))
                node.append(flat)
                continue
            if tag == "Q":
                node.append(value.maxlen)  # type: ignore[attr-defined]
            node.append(list(snap) if not _nodal(snap) else [item(kid) for kid in snap])  # type: ignore[arg-type,attr-defined,call-overload]


def _inline(value: object) -> bool:
    kind = type(value)
    return kind in _SCALARS and (kind is not int or -_BIG < value < _BIG) and (kind is not float or value == value)  # type: ignore[operator]


def _nodal(values: list) -> list:
    """The members that need nodes of their own (not inline scalars)."""
    kinds = set(map(type, values))
    if kinds <= _PLAIN:
        return []
    if kinds <= _PLAIN_NUMBERS:
        ints = [v for v in values if type(v) is int] if kinds - {int} else values
        floats = [v for v in values if type(v) is float] if float in kinds else ()
        if (not ints or (-_BIG < min(ints) and max(ints) < _BIG)) and not any(map(math.isnan, floats)):
            return []
    return [v for v in values if not _inline(v)]


def _factory(value: object) -> bool:
    return type(value) is type and value in _TYPES


def _real(x: float) -> object:
    return x if x == x else "nan"


def _viewed(view: object) -> object:
    return gc.get_referents(view)[0]


def _is_named_tuple(value: object, kind: type) -> bool:
    if not (isinstance(value, tuple) and kind.__bases__ == (tuple,)):
        return False
    fields = getattr(kind, "_fields", None)
    return type(fields) is tuple and all(type(f) is str for f in fields) and all(getattr(kind, m) is getattr(tuple, m) for m in _TUPLE_DUNDERS)


OWN_CODE = "<candidate>"
"""The file name the driver compiles the candidate's program under."""
JUDGING_DUNDERS = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__")
"""What ``==``, ordering, set/dict membership and truth tests run on a value in one process."""


def own_dunder(kind: type) -> str:
    """The first of :data:`JUDGING_DUNDERS` that ``kind`` takes from a function written in the
    candidate's program (code compiled as :data:`OWN_CODE`), or ``""``. Methods generated by the
    standard library (dataclasses, enum, namedtuple, functools) or inherited from builtins are not
    the candidate's own."""
    mro = kind.__mro__
    for name in JUDGING_DUNDERS:
        for klass in mro:
            found = vars(klass).get(name, _UNSET)
            if found is _UNSET:
                continue
            code = getattr(found, "__code__", None)
            if code is not None and getattr(code, "co_filename", None) == OWN_CODE:
                return name
            break
    return ""


def _is_iterator(kind: type) -> bool:
    return callable(getattr(kind, "__next__", None)) and callable(getattr(kind, "__iter__", None))


# ---- decoding ----------------------------------------------------------------------------------
class Decoder:
    """Decodes graphs for one side of one job (caches rebuilt named-tuple classes)."""

    def __init__(self, mirror: Mirror | None = None, budget: Budget | None = None, handle: Callable[[int], object] | None = None) -> None:
        self.mirror = mirror
        self.budget = budget or Budget()
        self.handle = handle
        self.classes: dict[tuple, type] = {}

    def decode(self, data: object) -> object:
        if type(data) is not dict or type(data.get("n")) is not list or "r" not in data:
            raise CodecError("malformed graph")
        return _Decoding(self, data["n"]).run(data["r"])


def decode(data: object, mirror: Mirror | None = None) -> object:
    """Inverse of :func:`encode` (unlimited budget; see :class:`Decoder`)."""
    return Decoder(mirror).decode(data)


class _Decoding:
    def __init__(self, owner: Decoder, nodes: list) -> None:
        if len(nodes) > MAX_NODES:
            raise CodecError("value has too many parts")
        self.owner = owner
        self.mirror = owner.mirror
        self.budget = owner.budget
        self.nodes = nodes
        self.objs: list = [_UNSET] * len(nodes)
        self.count = 0

    def run(self, root: object) -> object:
        nodes, objs = self.nodes, self.objs
        fills = []
        seen: set[int] = set()
        for i, node in enumerate(nodes):
            if type(node) is not list or not node or type(node[0]) is not str:
                raise CodecError("malformed node")
            tag = node[0]
            if tag in _MUTABLE_TAGS or tag == "@" or tag == "G":
                self._tick()
                if len(node) < 2 or type(node[1]) is not int or (node[1] and node[1] in seen):
                    raise CodecError("malformed mirrored node")
                seen.add(node[1])
                objs[i] = self._shell(tag, node)
                if tag in _MUTABLE_TAGS:
                    fills.append(i)
        for i, node in enumerate(nodes):
            if objs[i] is _UNSET:
                self._tick()
                try:
                    objs[i] = self._immutable(node[0], node, i)
                except CodecError:
                    raise
                except (TypeError, ValueError, OverflowError, ArithmeticError, IndexError) as exc:
                    raise CodecError(f"malformed value: {type(exc).__name__}") from None
        for i in fills:
            try:
                self._fill(objs[i], nodes[i])
            except CodecError:
                raise
            except (TypeError, ValueError, OverflowError) as exc:
                raise CodecError(f"malformed value: {type(exc).__name__}") from None
            if self.mirror is not None:
                self.mirror.snaps[nodes[i][1]] = _snap(objs[i])
        return self._item(root, len(nodes))

    def _tick(self, n: int = 1) -> None:
        before = self.count
        self.count += n
        if self.count > MAX_ITEMS:
            raise CodecError("value has too many parts")
        if before // CHECK_EVERY != self.count // CHECK_EVERY:
            self.budget.check()

    def _shell(self, tag: str, node: list) -> object:
        mid, mirror = node[1], self.mirror
        known = mirror.objects.get(mid, _UNSET) if mirror is not None else _UNSET
        if tag == "@":
            if known is _UNSET:
                raise CodecError("reference to an unknown object")
            return known
        if known is not _UNSET:
            if tag == "G":
                return known
            if type(known) is not _MUTABLE_TAGS.get(tag):
                raise CodecError("state of a mirrored object changed its type")
            if tag == "Q" and (len(node) != 4 or known.maxlen != node[2]):  # type: ignore[attr-defined]
                raise CodecError("deque maxlen changed")
            return known
        if mirror is None:
            mid = 0
        elif mid == 0 or (mid > 0) == (mirror.sign > 0):
            raise CodecError("new object with a foreign id")
        if tag == "G":
            if self.owner.handle is None:
                raise CodecError("unexpected iterator handle")
            obj = self.owner.handle(mid)
        elif tag == "Q":
            if len(node) != 4 or not (node[2] is None or (type(node[2]) is int and 0 <= node[2] < _BIG)):
                raise CodecError("malformed deque")
            obj = _deque(maxlen=node[2])
        else:
            obj = _MUTABLE_TAGS[tag]()
        if mirror is not None:
            mirror.add(obj, mid)
        return obj

    def _item(self, it: object, upto: int) -> object:
        kind = type(it)
        if kind is list:
            if len(it) != 1 or type(it[0]) is not int or not 0 <= it[0] < upto:  # type: ignore[arg-type,index]
                raise CodecError("malformed reference")
            found = self.objs[it[0]]  # type: ignore[index]
            if found is _UNSET:
                raise CodecError("forward reference to an immutable value")
            return found
        if kind in _SCALARS:
            return it
        raise CodecError("malformed item")

    def _items(self, raw: object, upto: int) -> list:
        if type(raw) is not list:
            raise CodecError("malformed items")
        self._tick(len(raw))
        if set(map(type, raw)) <= _SCALARS:
            return raw
        item = self._item
        return [item(it, upto) for it in raw]

    def _fill(self, obj: object, node: list) -> None:
        tag = node[0]
        n = len(self.nodes)
        if tag == "y":
            if len(node) != 3 or type(node[2]) is not str:
                raise CodecError("malformed bytearray")
            obj[:] = bytes.fromhex(node[2])  # type: ignore[index]
            return
        if tag == "l":
            if len(node) != 3:
                raise CodecError("malformed list")
            obj[:] = self._items(node[2], n)  # type: ignore[index]
            return
        if tag == "Q":
            obj.clear()  # type: ignore[attr-defined]
            obj.extend(self._items(node[3], n))  # type: ignore[attr-defined]
            return
        if tag == "s":
            if len(node) != 3:
                raise CodecError("malformed set")
            obj.clear()  # type: ignore[attr-defined]
            self._insert(obj.add, self._items(node[2], n))  # type: ignore[attr-defined]
            return
        if tag == "D":
            if len(node) != 4:
                raise CodecError("malformed defaultdict")
            factory = self._item(node[2], n)
            if factory is not None and factory not in _TYPES:
                raise CodecError("defaultdict factory is not a builtin type")
            obj.default_factory = factory  # type: ignore[attr-defined]
        elif len(node) != 3:
            raise CodecError("malformed mapping")
        flat = self._items(node[-1], n)
        if len(flat) % 2:
            raise CodecError("malformed mapping items")
        obj.clear()  # type: ignore[attr-defined]
        setitem = obj.__setitem__  # type: ignore[index]
        self._insert(lambda pair: setitem(*pair), zip(flat[::2], flat[1::2]))  # type: ignore[misc]

    def _insert(self, add: Callable[[object], object], members: Iterable[object]) -> None:
        """Insert one at a time, checking the CPU budget (hash collisions make inserts O(n))."""
        check = self.budget.check
        for k, member in enumerate(members):
            add(member)
            if not k % CHECK_EVERY:
                check()

    def _immutable(self, tag: str, node: list, i: int) -> object:
        item = self._item
        if tag == "t":
            return tuple(self._items(node[1], i))
        if tag == "z":
            members: set = set()
            self._insert(members.add, self._items(node[1], i))
            frozen = frozenset(members)
            self.budget.check()
            return frozen
        if tag in ("I", "b", "M", "T") and (len(node) != 2 or type(node[1]) is not str):
            raise CodecError("malformed scalar node")
        if tag == "I":
            return int(node[1], 16)
        if tag == "b":
            return bytes.fromhex(node[1])
        if tag == "M":
            return decimal.Decimal(node[1])
        if tag == "T":
            found = _TYPES_BY_NAME.get(node[1])
            if found is None:
                raise CodecError("unsupported type object")
            return found
        if tag == "n":
            return _NAN if node[1] == 1 else float("nan")
        if tag == "c":
            return complex(*(float(x) if type(x) is str and x == "nan" else _number(x) for x in node[1:3]))
        if tag in _VIEW_OF:
            target = item(node[1], i)
            if type(target) not in (dict, _Counter, _OrderedDict, _defaultdict):
                raise CodecError("view of a non-dict")
            return _VIEW_OF[tag](target)  # type: ignore[arg-type]
        if tag == "F":
            num, den = _int(item(node[1], i)), _int(item(node[2], i))
            if max(num.bit_length(), den.bit_length()) > MAX_FRACTION_BITS:
                raise CodecError("fraction too large")
            return fractions.Fraction(num, den)
        if tag == "R":
            return range(_int(item(node[1], i)), _int(item(node[2], i)), _int(item(node[3], i)))
        if tag == "da":
            return datetime.date(*map(_int, node[1:4]))
        if tag == "td":
            return datetime.timedelta(*map(_int, node[1:4]))
        if tag == "ti":
            # mypy assumes the unpacked map may also fill the tzinfo parameter; it fills hour..microsecond only
            return datetime.time(*map(_int, node[1:5]), tzinfo=_tz(item(node[5], i)), fold=_int(node[6]))  # type: ignore[misc, arg-type]
        if tag == "dt":
            return datetime.datetime(*map(_int, node[1:8]), tzinfo=_tz(item(node[8], i)), fold=_int(node[9]))  # type: ignore[misc, arg-type]
        if tag == "tz":
            offset = item(node[1], i)
            if type(offset) is not datetime.timedelta or not (node[2] is None or type(node[2]) is str):
                raise CodecError("malformed timezone")
            return datetime.timezone(offset) if node[2] is None else datetime.timezone(offset, node[2])
        if tag == "N":
            return self._named_tuple(node, i)
        raise CodecError(f"unknown tag {tag[:20]!r}")

    def _named_tuple(self, node: list, i: int) -> object:
        if len(node) != 5 or type(node[1]) is not str or type(node[2]) is not str or type(node[3]) is not list or not all(type(f) is str for f in node[3]):
            raise CodecError("malformed named tuple")
        key = (node[1], node[2], tuple(node[3]))
        cls = self.owner.classes.get(key)
        if cls is None:
            if len(node[3]) > 255 or len(node[1]) + len(node[2]) > 500:
                raise CodecError("named tuple too large")
            made = collections.namedtuple(node[2].rpartition(".")[2], node[3], module=node[1])  # type: ignore[misc]  # names known at run time
            made.__qualname__ = node[2]
            cls = self.owner.classes[key] = made
        values = self._items(node[4], i)
        if len(values) != len(node[3]):
            raise CodecError("named tuple of the wrong length")
        return cls._make(values)  # type: ignore[attr-defined]


def _int(x: object) -> int:
    if type(x) is not int:
        raise CodecError("expected an int")
    return x


def _number(x: object) -> float:
    if type(x) not in (int, float):
        raise CodecError("expected a number")
    return x  # type: ignore[return-value]


def _tz(x: object) -> datetime.tzinfo | None:
    if x is not None and type(x) is not datetime.timezone:
        raise CodecError("unsupported tzinfo")
    return x


# ---- exceptions --------------------------------------------------------------------------------
STANDARD_MODULES = ("builtins", "decimal", "json.decoder", "re", "statistics", "struct", "copy", "binascii", "zlib")
"""Modules whose exception classes cross as themselves (both sides import them before any job)."""


def standard_exceptions() -> dict[type, tuple[str, str]]:
    """Every exception class defined by the standard modules loaded here, by identity."""
    found: dict[type, tuple[str, str]] = {}
    for name in STANDARD_MODULES:
        try:
            __import__(name)
        except ImportError:
            continue
        module = sys.modules.get(name)
        for value in vars(module).values() if module is not None else ():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ in STANDARD_MODULES:
                found[value] = (value.__module__, value.__qualname__)
    return found
