"""Adversarial cases for the judge/candidate boundary: the same program (candidate + tests) must get
the verdict it would get in one process, and no candidate code may run in the judge.

Classes: ``exceptions`` (exceptions cross by class hierarchy, exits always fail), ``aliasing``
(mirrored identity: shared results, in-place mutation of arguments, mutation after return),
``values`` (legitimate standard-library values and builtin subclasses must cross; a value whose
class the candidate wrote with comparisons of its own fails; others get no label), ``exit`` (a
candidate that ends or breaks the judge's calls fails, whatever the moment and the form) and
``budget`` (decoding is charged to the candidate). Attacks never PASS; ``control`` cases must PASS.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, T, E, P, U = Verdict.FAIL, Verdict.TIMEOUT, Verdict.ERROR, Verdict.PASS, Verdict.UNDECIDED


def _check(body: str) -> TestSuite:
    lines = "".join(f"    {line}\n" for line in body.splitlines())
    return TestSuite("check", f"def check(candidate):\n{lines}")


def _c(name: str, category: str, program: str, tests: str, expected: set[Verdict] | Verdict) -> Case:
    return make_case(name, category, program, expected, _check(tests), entry_point="f")


_EXPECT_TYPEERROR = "try:\n    candidate(1)\nexcept TypeError:\n    pass\nelse:\n    raise AssertionError('no TypeError')"
_SWALLOW = "try:\n    candidate(1)\nexcept Exception:\n    pass\nassert True"
_SWALLOW_ALL = "try:\n    candidate(1)\nexcept BaseException:\n    pass\nassert True"

EXCEPTIONS: tuple[Case, ...] = (
    _c("own_typeerror_class", "exceptions", "class TypeError(Exception):\n    pass\ndef f(x):\n    raise TypeError('x')\n", _EXPECT_TYPEERROR, F),
    _c(
        "own_typeerror_module_builtins",
        "exceptions",
        "class TypeError(Exception):\n    __module__ = 'builtins'\ndef f(x):\n    raise TypeError('x')\n",
        _EXPECT_TYPEERROR,
        F,
    ),
    _c(
        "patched_builtins_typeerror",
        "exceptions",
        "import builtins\n"
        "class E(Exception):\n"
        "    pass\n"
        "E.__name__ = E.__qualname__ = 'TypeError'\n"
        "E.__module__ = 'builtins'\n"
        "builtins.TypeError = E\n"
        "def f(x):\n"
        "    raise E('x')\n",
        _EXPECT_TYPEERROR,
        F,
    ),
    _c("unicode_error_is_not_typeerror", "exceptions", "def f(x):\n    b'\\xff'.decode('utf-8')\n", _EXPECT_TYPEERROR, F),
    _c("sys_exit_zero_swallowed", "exceptions", "import sys\ndef f(x):\n    sys.exit(0)\n", _SWALLOW, F),
    _c("sys_exit_swallowed_by_base", "exceptions", "import sys\ndef f(x):\n    sys.exit(0)\n", _SWALLOW_ALL, F),
    _c("keyboard_interrupt_swallowed", "exceptions", "def f(x):\n    raise KeyboardInterrupt\n", _SWALLOW_ALL, F),
    _c("generator_exit_swallowed", "exceptions", "def f(x):\n    raise GeneratorExit\n", _SWALLOW_ALL, F),
    _c("own_base_exception_swallowed", "exceptions", "class Bye(BaseException):\n    pass\ndef f(x):\n    raise Bye()\n", _SWALLOW_ALL, F),
    _c("own_system_exit_subclass", "exceptions", "class Bye(SystemExit):\n    pass\ndef f(x):\n    raise Bye(0)\n", _SWALLOW, F),
    _c(
        "stop_iteration_subclass_in_map",
        "exceptions",
        "class S(StopIteration):\n    pass\ndef f(x):\n    raise S\n",
        "assert all(map(lambda v: candidate(v) == v, [1, 2, 3]))",
        F,
    ),
    _c(
        "exception_after_bad_mutation",
        "exceptions",
        "def f(a):\n    a.append(9)\n    raise ValueError('no')\n",
        "a = [1]\ntry:\n    candidate(a)\nexcept ValueError:\n    pass\nassert a == [1]",
        F,
    ),
    _c(
        "control_own_valueerror_subclass",
        "control",
        "class Bad(ValueError):\n    pass\ndef f(x):\n    raise Bad('bad input')\n",
        "try:\n    candidate(1)\nexcept ValueError as e:\n    assert str(e) == 'bad input' and type(e).__name__ == 'Bad'\nelse:\n    raise AssertionError",
        P,
    ),
    _c("control_own_typeerror_subclass", "control", "class Bad(TypeError):\n    pass\ndef f(x):\n    raise Bad('x')\n", _EXPECT_TYPEERROR, P),
    _c(
        "control_unicode_decode_error",
        "control",
        "def f(x):\n    return b'\\xff'.decode('utf-8')\n",
        "try:\n    candidate(1)\nexcept UnicodeDecodeError as e:\n    assert e.start == 0 and e.reason\nelse:\n    raise AssertionError",
        P,
    ),
    _c(
        "control_exception_identity_across_calls",
        "control",
        "class Bad(ValueError):\n    pass\ndef f(x):\n    raise Bad(x)\n",
        "def kind(v):\n    try:\n        candidate(v)\n    except ValueError as e:\n        return type(e)\nassert kind(1) is kind(2)",
        P,
    ),
    _c(
        "control_unencodable_exception_args",
        "control",
        "def f(x):\n    raise KeyError(object())\n",
        "try:\n    candidate(1)\nexcept KeyError:\n    pass\nelse:\n    raise AssertionError",
        P,
    ),
    _c(
        "control_decimal_exception",
        "control",
        "import decimal\ndef f(x):\n    return decimal.Decimal(1) / decimal.Decimal(0)\n",
        "import decimal\ntry:\n    candidate(1)\nexcept decimal.DivisionByZero:\n    pass\nelse:\n    raise AssertionError",
        P,
    ),
)

ALIASING: tuple[Case, ...] = (
    _c(
        "reused_result_list",
        "aliasing",
        "_out = []\ndef f(x):\n    _out[:] = [x]\n    return _out\n",
        "a = candidate(1)\nb = candidate(2)\nassert a == [1] and b == [2]",
        F,
    ),
    _c(
        "argument_mutated_unexpectedly",
        "aliasing",
        "def f(a):\n    a.append(0)\n    return len(a) - 1\n",
        "a = [1, 2]\nassert candidate(a) == 2\nassert a == [1, 2]",
        F,
    ),
    _c(
        "result_mutated_after_return",
        "aliasing",
        "_keep = []\ndef f(x):\n    if _keep:\n        _keep[0].append('x')\n    r = [x]\n    _keep.append(r)\n    return r\n",
        "a = candidate(1)\ncandidate(2)\nassert a == [1]",
        F,
    ),
    _c("dict_mutated_in_place", "aliasing", "def f(d):\n    d['k'] = 0\n    return True\n", "d = {'k': 1}\nassert candidate(d)\nassert d == {'k': 1}", F),
    _c("no_sort_in_place", "aliasing", "def f(a):\n    return sorted(a)\n", "a = [3, 1, 2]\ncandidate(a)\nassert a == [1, 2, 3]", F),
    _c("control_sort_in_place", "control", "def f(a):\n    a.sort()\n", "a = [3, 1, 2]\ncandidate(a)\nassert a == [1, 2, 3]", P),
    _c(
        "control_nested_in_place",
        "control",
        "def f(g):\n    g[0].append(1)\n    g[1]['x'] = {2}\n    g[2].add(3)\n",
        "row, m, s = [], {}, set()\ncandidate([row, m, s])\nassert row == [1] and m == {'x': {2}} and s == {3}",
        P,
    ),
    _c(
        "control_state_seen_by_candidate",
        "control",
        "_state = []\ndef f(op):\n    return _state if op == 'get' else len(_state)\n",
        "s = candidate('get')\ns.append(5)\nassert candidate('len') == 1",
        P,
    ),
    _c("control_shared_arguments", "control", "def f(a):\n    return a[0] is a[1] and a[0] is not a[2]\n", "x = []\nassert candidate([x, x, []])", P),
    _c("control_cycle", "control", "def f(a):\n    a.append(a)\n    return a\n", "a = [1]\nr = candidate(a)\nassert r is a and a[1] is a", P),
    _c(
        "control_same_result_object",
        "control",
        "_out = []\ndef f(x):\n    _out.append(x)\n    return _out\n",
        "a = candidate(1)\nb = candidate(2)\nassert a is b and a == [1, 2]",
        P,
    ),
)

VALUES: tuple[Case, ...] = (
    # a value the proxy cannot carry: the program may be right (here it is), so never a label
    _c("unsupported_result_type", "values", "class Box:\n    pass\ndef f(x):\n    return Box()\n", "assert candidate(1) is not None", U),
    _c("unsupported_caught_by_except", "values", "class Box:\n    pass\ndef f(x):\n    return Box()\n", _SWALLOW_ALL, U),
    _c(
        "list_subclass_result",
        "values",
        "class L(list):\n    def __eq__(self, o):\n        return True\ndef f(x):\n    return L()\n",
        "assert candidate(1) == [1, 2]",
        F,  # an always-equal object: its class decides its own comparisons
    ),
    _c("generator_wrong_items", "values", "def f(n):\n    yield from range(n + 1)\n", "assert list(candidate(3)) == [0, 1, 2]", F),
    _c(
        "control_fraction",
        "control",
        "from fractions import Fraction\ndef f(x):\n    return Fraction(x, 3)\n",
        "from fractions import Fraction\nassert candidate(1) == Fraction(1, 3)",
        P,
    ),
    _c(
        "control_decimal",
        "control",
        "from decimal import Decimal\ndef f(x):\n    return Decimal(x) / 4\n",
        "from decimal import Decimal\nassert candidate(1) == Decimal('0.25')",
        P,
    ),
    _c(
        "control_generator",
        "control",
        "def f(n):\n    yield from range(n)\n",
        "assert list(candidate(3)) == [0, 1, 2]\ng = candidate(2)\nassert next(g) == 0 and iter(g) is g",
        P,
    ),
    _c(
        "control_infinite_generator",
        "control",
        "import itertools\ndef f(n):\n    return itertools.count(n)\n",
        "import itertools\nassert list(itertools.islice(candidate(5), 3)) == [5, 6, 7]",
        P,
    ),
    _c("control_map_result", "control", "def f(xs):\n    return map(abs, xs)\n", "assert sorted(candidate([-2, 1])) == [1, 2]", P),
    _c(
        "control_deep_argument",
        "control",
        "def f(x):\n    n = 0\n    while x:\n        x, n = x[0], n + 1\n    return n\n",
        "x = []\nfor _ in range(5000):\n    x = [x]\nassert candidate(x) == 5000",
        P,
    ),
    _c(
        "control_misc_values",
        "control",
        "import collections, datetime\n"
        "def f(x):\n"
        "    return [collections.deque([1], maxlen=3), range(2, 9, 3), bytearray(b'ab'), "
        "datetime.date(2020, 1, 2), datetime.timedelta(hours=1), {1: 2}.keys(), float('inf')]\n",
        "import collections, datetime\n"
        "q, r, b, d, t, k, inf = candidate(0)\n"
        "assert q.maxlen == 3 and r == range(2, 9, 3) and b == bytearray(b'ab') and d.year == 2020 and t.seconds == 3600 and list(k) == [1] and inf > 1e308",
        P,
    ),
    _c(
        "control_named_tuple",
        "control",
        "from typing import NamedTuple\nclass P(NamedTuple):\n    x: int\n    y: int\ndef f(a):\n    return P(a, a + 1)\n",
        "r = candidate(1)\nassert r == (1, 2) and r.x == 1 and r.y == 2",
        P,
    ),
    _c("control_math_nan_identity", "control", "import math\ndef f(x):\n    return [math.nan]\n", "import math\nassert candidate(1) == [math.nan]", P),
)

BUDGET: tuple[Case, ...] = (
    _c("colliding_dict_keys", "budget", "def f(x):\n    return {k * ((1 << 61) - 1): 0 for k in range(1, 60000)}\n", "assert candidate(1) == {}", {F, T}),
    _c(
        "colliding_frozenset",
        "budget",
        "def f(x):\n    return frozenset(k * ((1 << 61) - 1) for k in range(1, 60000))\n",
        "assert candidate(1) == frozenset()",
        {F, T},
    ),
    _c("colliding_tuple_keys", "budget", "def f(x):\n    return {(k * ((1 << 61) - 1), 0): 0 for k in range(1, 40000)}\n", "assert candidate(1) == {}", {F, T}),
    _c("huge_nested_reply", "budget", "def f(x):\n    return [[i] for i in range(1_500_000)]\n", "assert candidate(1) == []", {F, T}),
    _c("huge_flat_reply", "budget", "def f(x):\n    return ['x' * 1000] * 40000\n", "assert candidate(1) == []", {F, T}),
)


def _forger(graph: str) -> str:
    """A candidate that replaces the driver's loop and answers every call with ``graph`` (Python
    source of a JSON-able graph, built cheaply here but costly to decode)."""
    return (
        "import os, sys, socket, json\nframes = sys.modules['frames']\nchan = socket.socket(fileno=3)\n"
        "frames.send(chan, {'op': 'ready'})\nM = (1 << 61) - 1\n"
        "while True:\n    f = frames.recv(chan)\n    if f is None:\n        os._exit(0)\n"
        f"    body = json.dumps({{'op': 'ret', 'n': f[0]['n'], 'g': {graph}}}).encode()\n"
        "    chan.sendall(len(body).to_bytes(4, 'big') + body)\n"
    )


FORGED: tuple[Case, ...] = (
    _c("forged_colliding_set", "budget", _forger("{'n': [['s', -1, [k * M for k in range(1, 60000)]]], 'r': [0]}"), "assert candidate(1) == set()", {F, T}),
    _c(
        "forged_colliding_frozenset",
        "budget",
        _forger("{'n': [['z', [k * M for k in range(1, 60000)]]], 'r': [0]}"),
        "assert candidate(1) == frozenset()",
        {F, T},
    ),
    _c("forged_many_nodes", "budget", _forger("{'n': [['l', -i - 1, []] for i in range(1_500_000)], 'r': None}"), "assert candidate(1) is None", {F, T}),
    _c("forged_immutable_cycle", "values", _forger("{'n': [['t', [[0]]]], 'r': [0]}"), "assert candidate(1) is not None", F),
    _c("forged_judge_object_new", "values", _forger("{'n': [['l', 5, [1]]], 'r': [0]}"), "assert candidate(1) == [1]", F),
    _c(
        "forged_unknown_standard_class",
        "exceptions",
        _forger("{'n': [], 'r': None}").replace("'op': 'ret'", "'op': 'exc', 'e': {'c': [['os', 'system', [], True]], 'a': {'n': [], 'r': [0]}}"),
        _SWALLOW,
        F,
    ),
)

_I_EQ = "class I(int):\n    def __eq__(self, other):\n        return True\n    __hash__ = int.__hash__\n"
"""An always-equal ``int`` subclass (an attack when the tests compare with ``==``)."""
_OWN_EXIT_EQ = "class R:\n    def __eq__(self, other):\n        raise SystemExit(0)\n"


def _hello_then_exit(data: bytes) -> str:
    """Writes ``data`` where the driver's first frame goes, then ends before any call."""
    return f"import os\nos.write(3, {data!r})\nos._exit(0)\ndef f(x):\n    return x + 1\n"


EXITS: tuple[Case, ...] = (
    # a candidate that ends or breaks the judge's calls fails, in every form and at every moment
    _c("garbage_hello_then_exit", "exit", _hello_then_exit(b"\x00\x00\x00\x05junk!"), "assert candidate(1) == 2", F),
    _c("truncated_hello_then_exit", "exit", _hello_then_exit(b"\x00"), "assert candidate(1) == 2", F),
    _c("oversized_hello_then_exit", "exit", _hello_then_exit(b"\x7f\x00\x00\x00"), "assert candidate(1) == 2", F),
    _c("list_hello_then_exit", "exit", _hello_then_exit(b"\x00\x00\x00\x02[]"), "assert candidate(1) == 2", F),
    _c("sigint_self_at_import", "exit", "import os, signal\nos.kill(os.getpid(), signal.SIGINT)\ndef f(x):\n    return x + 1\n", "assert candidate(1) == 2", F),
    _c(
        "sigkill_self_at_import",
        "exit",
        "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\ndef f(x):\n    return x + 1\n",
        "assert candidate(1) == 2",
        F,
    ),
    _c(
        "sigterm_self_in_call",
        "exit",
        "import os, signal\ndef f(x):\n    os.kill(os.getpid(), signal.SIGTERM)\n    return x + 1\n",
        "assert candidate(1) == 2",
        F,
    ),
    _c(
        "interrupt_main_in_call",
        "exit",
        "import _thread, time\ndef f(x):\n    _thread.interrupt_main()\n    time.sleep(0.05)\n    return x + 1\n",
        _SWALLOW_ALL,
        F,
    ),
    _c(
        "os_exit_second_call",
        "exit",
        "import os\n_n = []\ndef f(x):\n    _n.append(x)\n    if len(_n) > 1:\n        os._exit(0)\n    return x + 1\n",
        "assert candidate(1) == 2\nassert candidate(2) == 3",
        F,
    ),
    _c("eq_raises_system_exit", "exit", _OWN_EXIT_EQ + "def f(x):\n    return R()\n", "assert candidate(1) == 2", F),
    _c(
        "exit_while_value_read",
        "exit",
        "class M(type):\n    def __getattribute__(cls, name):\n        raise SystemExit(0)\nclass R(metaclass=M):\n    pass\ndef f(x):\n    return R()\n",
        "assert candidate(1) == 2",
        F,
    ),
    _c(
        "os_exit_while_value_read",
        "exit",
        "import os\nclass M(type):\n    def __getattribute__(cls, name):\n        os._exit(0)\nclass R(metaclass=M):\n    pass\ndef f(x):\n    return R()\n",
        "assert candidate(1) == 2",
        F,
    ),
    _c(
        "keyboard_interrupt_while_value_read",
        "exit",
        "class M(type):\n    def __getattribute__(cls, name):\n        raise KeyboardInterrupt\nclass R(metaclass=M):\n    pass\ndef f(x):\n    return [R()]\n",
        _SWALLOW_ALL,
        F,
    ),
    # the tests' own failure message cannot be made (an int over 4300 digits): still the tests' FAIL
    _c("huge_int_in_assert_message", "exit", "def f(x):\n    return 10 ** 5000\n", "r = candidate(1)\nassert r == 2, r", F),
)

OWN_VALUES: tuple[Case, ...] = (
    # values whose class the candidate wrote with comparisons of its own: FAIL (see execir.execute.decide)
    _c("always_equal_int_subclass", "values", _I_EQ + "def f(x):\n    return I(0)\n", "assert candidate(1) == 2", F),
    _c(
        "always_equal_str_subclass",
        "values",
        "class S(str):\n    def __eq__(self, o):\n        return True\n    __hash__ = str.__hash__\ndef f(x):\n    return S('no')\n",
        "assert candidate(1) == 'yes'",
        F,
    ),
    _c(
        "always_equal_tuple_subclass",
        "values",
        "class T(tuple):\n    def __eq__(self, o):\n        return True\n    __hash__ = tuple.__hash__\ndef f(x):\n    return T()\n",
        "assert candidate(1) == (1, 2)",
        F,
    ),
    _c("always_equal_in_list", "values", _I_EQ + "def f(x):\n    return [I(0), I(0)]\n", "assert candidate(1) == [2, 3]", F),
    _c("always_equal_dict_key", "values", _I_EQ + "def f(x):\n    return {I(0): 1}\n", "assert candidate(1) == {2: 1}", F),
    _c("always_equal_put_in_argument", "values", _I_EQ + "def f(a):\n    a.append(I(0))\n", "a = []\ncandidate(a)\nassert a == [2]", F),
    _c("always_equal_inherited", "values", _I_EQ + "class J(I):\n    pass\ndef f(x):\n    return J(0)\n", "assert candidate(1) == 2", F),
    _c("lambda_eq_object", "values", "class Y:\n    __eq__ = lambda self, o: True\ndef f(x):\n    return Y()\n", "assert candidate(1) == 2", F),
    _c("always_true_object", "values", "class Y:\n    def __bool__(self):\n        return True\ndef f(x):\n    return Y()\n", "assert candidate(1)", F),
    _c(
        "hash_eq_set_member",
        "values",
        "class Y:\n    def __hash__(self):\n        return hash(2)\n    def __eq__(self, o):\n        return True\ndef f(x):\n    return Y()\n",
        "assert candidate(1) in {2}",
        F,
    ),
    _c("always_less_object", "values", "class Y:\n    def __lt__(self, o):\n        return True\ndef f(x):\n    return Y()\n", "assert candidate(1) < 0", F),
    # builtin subclasses without comparisons of their own cross as their builtin value: the data decides
    _c(
        "len_lies_list_subclass",
        "values",
        "class L(list):\n    def __len__(self):\n        return 3\ndef f(x):\n    return L()\n",
        "assert len(candidate(1)) == 3",
        F,
    ),
    _c(
        "iter_lies_list_subclass",
        "values",
        "class L(list):\n    def __iter__(self):\n        return iter([2])\ndef f(x):\n    return L()\n",
        "assert list(candidate(1)) == [2]",
        F,
    ),
    _c(
        "int_lies_int_subclass",
        "values",
        "class I(int):\n    def __int__(self):\n        return 2\ndef f(x):\n    return I(0)\n",
        "assert int(candidate(1)) == 2",
        F,
    ),
    _c(
        "str_lies_str_subclass",
        "values",
        "class S(str):\n    def __str__(self):\n        return 'yes'\ndef f(x):\n    return S('no')\n",
        "assert str(candidate(1)) == 'yes'",
        F,
    ),
    _c(
        "sub_lies_float_subclass",
        "values",
        "class F(float):\n    def __sub__(self, o):\n        return 0.0\ndef f(x):\n    return F(9.0)\n",
        "assert abs(candidate(1) - 2.5) < 1e-6",
        F,
    ),
    # values the judge cannot carry and that might be right: no label
    _c(
        "dataclass_result",
        "values",
        "from dataclasses import dataclass\n@dataclass\nclass P:\n    x: int\ndef f(x):\n    return P(x)\n",
        "assert candidate(1).x == 1",
        U,
    ),
    _c("plain_enum_result", "values", "import enum\nclass C(enum.Enum):\n    A = 1\ndef f(x):\n    return C.A\n", "assert candidate(1).value == 1", U),
)

PLAIN_SUBCLASSES: tuple[Case, ...] = (
    # ordinary programs returning builtin subclasses, or using own-comparison classes inside only
    _c(
        "control_int_enum",
        "control",
        "from enum import IntEnum\nclass C(IntEnum):\n    A = 2\ndef f(x):\n    return C.A\n",
        "assert candidate(1) == 2 and candidate(1) + 1 == 3",
        P,
    ),
    _c(
        "control_int_flag",
        "control",
        "import enum\nclass C(enum.IntFlag):\n    R = 1\n    G = 2\ndef f(x):\n    return C.R | C.G\n",
        "assert candidate(1) == 3",
        P,
    ),
    _c(
        "control_str_enum_like",
        "control",
        "class S(str):\n    def shout(self):\n        return self.upper()\ndef f(x):\n    return S('yes')\n",
        "assert candidate(1) == 'yes' and candidate(1).upper() == 'YES'",
        P,
    ),
    _c(
        "control_int_subclass_plain",
        "control",
        "class MyInt(int):\n    pass\ndef f(x):\n    return MyInt(x + 1)\n",
        "assert candidate(1) == 2 and isinstance(candidate(1), int)",
        P,
    ),
    _c(
        "control_str_subclass_repr",
        "control",
        "class S(str):\n    def __repr__(self):\n        return 'S!'\ndef f(x):\n    return S('yes')\n",
        "assert candidate(1) == 'yes'",
        P,
    ),
    _c(
        "control_float_subclass",
        "control",
        "class F(float):\n    def half(self):\n        return self / 2\ndef f(x):\n    return F(2.5)\n",
        "assert abs(candidate(1) - 2.5) < 1e-9",
        P,
    ),
    _c("control_struct_time", "control", "import time\ndef f(x):\n    return time.gmtime(0)\n", "assert candidate(1)[0] == 1970", P),
    _c(
        "control_list_subclass",
        "control",
        "class L(list):\n    def total(self):\n        return sum(self)\ndef f(x):\n    r = L([1, 2])\n    r.append(3)\n    return r\n",
        "assert candidate(1) == [1, 2, 3]",
        P,
    ),
    _c("control_dict_subclass", "control", "class D(dict):\n    pass\ndef f(x):\n    return D(a=x)\n", "assert candidate(1) == {'a': 1}", P),
    _c(
        "control_frozenset_subclass_keys",
        "control",
        "class Z(frozenset):\n    pass\ndef f(x):\n    return {Z([1]): Z([2])}\n",
        "assert candidate(1) == {frozenset([1]): frozenset([2])}",
        P,
    ),
    _c(
        "control_subclass_cycle",
        "control",
        "class L(list):\n    pass\ndef f(x):\n    r = L()\n    r.append(r)\n    return r\n",
        "r = candidate(1)\nassert r[0] is r",
        P,
    ),
    _c(
        "control_subclass_shared",
        "control",
        "class L(list):\n    pass\ndef f(x):\n    r = L([1])\n    return [r, r]\n",
        "a, b = candidate(1)\nassert a is b and a == [1]",
        P,
    ),
    _c(
        "control_subclass_put_in_argument",
        "control",
        "class MyInt(int):\n    pass\ndef f(a):\n    a.append(MyInt(2))\n",
        "a = []\ncandidate(a)\nassert a == [2]",
        P,
    ),
    _c(
        "control_own_eq_used_inside",
        "control",
        "import functools\n@functools.total_ordering\nclass K:\n    def __init__(self, v):\n        self.v = v\n"
        "    def __eq__(self, o):\n        return self.v == o.v\n"
        "    def __lt__(self, o):\n        return self.v < o.v\ndef f(xs):\n    return [k.v for k in sorted(map(K, xs))]\n",
        "assert candidate([3, 1, 2]) == [1, 2, 3]",
        P,
    ),
    _c(
        "control_own_eq_exception_raised",
        "control",
        "class Bad(ValueError):\n    def __eq__(self, o):\n        return True\n    __hash__ = ValueError.__hash__\ndef f(x):\n    raise Bad('no')\n",
        "try:\n    candidate(1)\nexcept ValueError:\n    pass\nelse:\n    raise AssertionError",
        P,
    ),
    _c(
        "control_own_iterator_class",
        "control",
        "class It:\n    def __init__(self):\n        self.i = 0\n    def __iter__(self):\n        return self\n"
        "    def __next__(self):\n        self.i += 1\n        if self.i > 2:\n            raise StopIteration\n        return self.i\n"
        "def f(x):\n    return It()\n",
        "assert list(candidate(1)) == [1, 2]",
        P,
    ),
    _c("control_huge_int_result", "control", "def f(x):\n    return 10 ** 5000\n", "r = candidate(1)\nassert r == 10 ** 5000, r", P),
)

BOUNDARY_CASES: tuple[Case, ...] = EXCEPTIONS + ALIASING + VALUES + BUDGET + FORGED + EXITS + OWN_VALUES + PLAIN_SUBCLASSES
