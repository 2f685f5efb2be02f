import collections
import datetime
import decimal
import fractions
import math
import time

import pytest

from execir.execute.harness import codec


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        False,
        0,
        -7,
        2**200,
        -(2**70),
        1.5,
        -0.0,
        float("inf"),
        "héllo\udcff",
        b"\x00\xff",
        [1, [2, (3, 4)]],
        (),
        {"a": 1, (1, 2): {frozenset({1})}},
        {1, 2},
        frozenset({"x"}),
        {True: None},
        3 - 4j,
        collections.Counter("abracadabra"),
        collections.OrderedDict([("b", 1), ("a", 2)]),
        collections.defaultdict(None, {"k": [1]}),
        collections.deque([1, "x"]),
        int,
        str,
        type(None),
        collections.defaultdict(list, {"k": [1]}),
        collections.deque([1], maxlen=3),
        bytearray(b"ab"),
        range(1, 9, 2),
        fractions.Fraction(-1, 3),
        decimal.Decimal("-0.10"),
        datetime.date(2020, 1, 2),
        datetime.timedelta(1, 2, 3),
        datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
        datetime.time(1, 2),
        [float("inf"), 2**63, -(2**63)],
    ],
)
def test_round_trip_keeps_exact_types(value):
    back = codec.decode(codec.encode(value))
    assert back == value
    assert type(back) is type(value)
    if isinstance(value, (collections.defaultdict, collections.deque)):
        assert (getattr(back, "default_factory", None), getattr(back, "maxlen", None)) == (
            getattr(value, "default_factory", None),
            getattr(value, "maxlen", None),
        )


def test_nan_round_trips():
    assert math.isnan(codec.decode(codec.encode(float("nan"))))


def test_bool_and_int_stay_distinct():
    assert codec.decode(codec.encode([True, 1])) == [True, 1]
    assert [type(v) for v in codec.decode(codec.encode([True, 1]))] == [bool, int]


class Liar(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class CounterLiar(collections.Counter):
    def __eq__(self, other):
        return True


@pytest.mark.parametrize("value", [Liar(3), object(), [1, Liar(2)], {"k": lambda: 0}, lambda: 0, CounterLiar("a"), Liar, iter([1])])
def test_non_builtin_types_are_refused(value):
    with pytest.raises(codec.CodecError, match="unsupported type"):
        codec.encode(value)


def test_shared_substructure_and_cycles_keep_identity():
    x = [1]
    a, b = codec.decode(codec.encode([x, x]))
    assert a is b
    cyc: list = [1]
    cyc.append(cyc)
    back = codec.decode(codec.encode(cyc))
    assert back[1] is back
    pair = codec.decode(codec.encode(({"k": [1]}, math.nan)))
    assert pair[1] is math.nan


def test_any_depth_without_recursion():
    deep: list = []
    for _ in range(10_000):
        deep = [deep]
    back, depth = codec.decode(codec.encode((deep,)))[0], 0
    while back:
        back, depth = back[0], depth + 1
    assert depth == 10_000


def test_mirrors_apply_mutation_in_place_both_ways():
    judge, cand = codec.Mirror(1), codec.Mirror(-1)
    to_cand, to_judge = codec.Decoder(cand), codec.Decoder(judge)
    arg = [3, 1, 2]
    seen = to_cand.decode(codec.encode((arg,), judge))[0]
    seen.sort()
    out: list = []
    back = to_judge.decode(codec.encode(out, cand))
    assert arg == [1, 2, 3]  # the argument was sorted in place on the judge's side too
    out.append(7)  # mutated after return, reported with the next reply
    to_judge.decode(codec.encode(None, cand))
    assert back == [7]
    back.append(8)  # the judge's change reaches the candidate before its next call
    to_cand.decode(codec.encode(None, judge))
    assert out == [7, 8]
    unchanged = codec.encode((arg,), judge)
    assert unchanged["n"][0] == ["@", 1]


def test_collect_drops_unreferenced():
    judge = codec.Mirror(1)
    codec.encode(([[1], [2]],), judge)
    kept = [5]
    codec.encode((kept,), judge)
    dropped = judge.collect(3)
    assert len(dropped) == 3 and list(judge.objects.values()) == [kept]


@pytest.mark.parametrize(
    "data",
    [
        {"x": 1},
        {"n": [], "r": {"a": 1}},
        {"n": [["t", [[0]]]], "r": [0]},  # immutable cycle
        {"n": [["t", [[1]]], ["t", []]], "r": [0]},  # forward reference to an immutable
        {"n": [["l", 0, []]], "r": [5]},
        {"n": [["s", 0, [[1]]], ["l", 0, []]], "r": [0]},  # unhashable member
        {"n": [["T", "os"]], "r": [0]},
        {"n": [["c", "1", 2]], "r": [0]},
        {"n": [["d", 0, [1]]], "r": [0]},
        {"n": [["@", 3]], "r": [0]},
        {"n": [["F", 1, 0]], "r": [0]},
        {"n": [["R", 0, 1, 0]], "r": [0]},
        {"n": [["D", 0, [0], []]], "r": [0]},
        {"n": [["zz"]], "r": [0]},
        {"n": [["N", "m", "P", ["a b"], [1]]], "r": [0]},
    ],
)
def test_malformed_structures_are_refused(data):
    with pytest.raises(codec.CodecError):
        codec.decode(data)


def test_foreign_ids_are_refused():
    judge = codec.Mirror(1)
    with pytest.raises(codec.CodecError):  # the candidate cannot create an object under a judge id
        codec.Decoder(judge).decode({"n": [["l", 7, []]], "r": [0]})


def test_hash_collisions_stop_at_the_budget():
    m = (1 << 61) - 1
    data = {"n": [["s", -1, [k * m for k in range(1, 60_000)]]], "r": [0]}
    budget = codec.Budget(0.2)
    started = time.process_time()
    budget.start()
    with pytest.raises(codec.BudgetExceeded):
        codec.Decoder(codec.Mirror(1), budget).decode(data)
    assert time.process_time() - started < 1.0


def _candidate_classes(source: str) -> dict:
    """Classes defined as the driver defines the candidate's program (compiled as ``<candidate>``)."""
    namespace: dict = {"__name__": "__candidate__"}
    exec(compile(source, codec.OWN_CODE, "exec"), namespace)
    return namespace


def _through_candidate_side(value: object) -> object:
    """``value`` encoded as the driver encodes a reply, then decoded as the judge does."""
    return codec.Decoder(codec.Mirror(1)).decode(codec.encode(value, codec.Mirror(-1)))


OWN = _candidate_classes(
    "import enum, dataclasses\n"
    "class I(int):\n    def __eq__(self, o):\n        return True\n    __hash__ = int.__hash__\n"
    "class J(I):\n    pass\n"
    "class Y:\n    __bool__ = lambda self: True\n"
    "class L(list):\n    def __len__(self):\n        return 3\n"
    "class C(enum.IntEnum):\n    A = 2\n"
    "@dataclasses.dataclass(order=True)\nclass P:\n    x: int\n"
    "class Box:\n    def __repr__(self):\n        return 'box'\n"
)


@pytest.mark.parametrize(("name", "dunder"), [("I", "__eq__"), ("J", "__eq__"), ("Y", "__bool__")])
def test_own_comparisons_are_named(name, dunder):
    assert codec.own_dunder(OWN[name]) == dunder
    with pytest.raises(codec.OwnValue, match=f"{name} defines its own {dunder}"):
        codec.encode([OWN[name]()], codec.Mirror(-1))


@pytest.mark.parametrize("name", ["L", "C", "P", "Box"])
def test_generated_or_inherited_comparisons_are_not_own(name):
    assert codec.own_dunder(OWN[name]) == ""


def test_builtin_subclasses_cross_as_their_builtin_value_from_the_candidate():
    values = [OWN["L"]([1, 2]), OWN["C"].A, time.gmtime(0), collections.namedtuple("Q", "a")(1)]
    back = _through_candidate_side(values)
    assert back[:3] == [[1, 2], 2, tuple(time.gmtime(0))]
    assert [type(v) for v in back[:3]] == [list, int, tuple]
    assert back[3] == (1,) and back[3].a == 1  # a named tuple keeps its fields


def test_builtin_subclass_keeps_identity_and_cycles():
    shared = OWN["L"]([1])
    a, b = _through_candidate_side([shared, shared])
    assert a is b and a == [1]
    cyc = OWN["L"]()
    cyc.append(cyc)
    back = _through_candidate_side(cyc)
    assert back[0] is back


def test_judge_side_never_projects():
    with pytest.raises(codec.CodecError, match="unsupported type"):
        codec.encode(OWN["C"].A, codec.Mirror(1))  # the judge's own arguments cross as they are
    with pytest.raises(codec.CodecError, match="unsupported type"):
        codec.encode(OWN["Box"](), codec.Mirror(-1))  # no own comparisons, no builtin base: refused
