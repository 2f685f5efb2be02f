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
