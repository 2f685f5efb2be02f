import collections
import math

import pytest

from execir.execute.harness import codec


@pytest.mark.parametrize(
    "value",
    [None, True, False, 0, -7, 2**200, -(2**70), 1.5, -0.0, float("inf"), "héllo\udcff", b"\x00\xff",
     [1, [2, (3, 4)]], (), {"a": 1, (1, 2): {frozenset({1})}}, {1, 2}, frozenset({"x"}), {True: None},
     3 - 4j, collections.Counter("abracadabra"), collections.OrderedDict([("b", 1), ("a", 2)]),
     collections.defaultdict(None, {"k": [1]}), collections.deque([1, "x"]), int, str, type(None)],
)
def test_round_trip_keeps_exact_types(value):
    back = codec.decode(codec.encode(value))
    assert back == value
    assert type(back) is type(value)


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


@pytest.mark.parametrize("value", [Liar(3), object(), [1, Liar(2)], {"k": range(3)}, lambda: 0, CounterLiar("a"), Liar])
def test_non_builtin_types_are_refused(value):
    with pytest.raises(codec.CodecError):
        codec.encode(value)


@pytest.mark.parametrize("data", [{"x": 1}, {"t": 5}, {"d": [[1]]}, {"s": [[1]]}, {"t": [], "s": []}, {"T": "os"}, {"c": ["1", 2]}, {"C": [[1]]}])
def test_malformed_structures_are_refused(data):
    with pytest.raises(codec.CodecError):
        codec.decode(data)


def test_depth_is_bounded():
    deep: list = []
    for _ in range(codec.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(codec.CodecError):
        codec.encode(deep)
