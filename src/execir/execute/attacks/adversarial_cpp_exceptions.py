"""C++ exceptions across the judged-outside wire: what the tests' ``catch`` clauses see must be what
they would see in one process (see ``call_one`` in harness ``cpp_caller.h`` and ``raise`` in
``cpp_replay.h``). Attacks throw what the tests' clause does not catch (an int, a class of their
own, a namesake of a standard class in another namespace, the wrong standard class or message);
controls throw what it does (a subclass of the standard class, a number, a C string, a class of
their own derived from ``std::exception`` with its own ``what()``). Each attack fails in one
process (the exception escapes ``main``: terminate, abort) and each control passes there.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, P = Verdict.FAIL, Verdict.PASS


def _suite(catch: str, check: str = "caught = true;") -> TestSuite:
    return TestSuite(
        "native",
        "#include <cstring>\n#include <stdexcept>\n#include <string>\nint check_age(int a);\n#undef NDEBUG\n#include <assert.h>\n"
        "int main() {\n    assert(check_age(3) == 3);\n    bool caught = false;\n"
        f"    try {{ check_age(-1); }} catch ({catch}) {{ {check} }}\n    assert(caught);\n    assert(check_age(0) == 0);\n}}\n",
    )


def _program(throw: str, header: str = "") -> str:
    return f"#include <stdexcept>\n#include <string>\n{header}int check_age(int a) {{\n    if (a < 0) {throw};\n    return a;\n}}\n"


INVALID = _suite("std::invalid_argument &e")
INVALID_WHAT = _suite("const std::invalid_argument &e", 'caught = std::string(e.what()) == "negative";')
RUNTIME = _suite("const std::runtime_error &e")
LOGIC = _suite("std::logic_error &e")
INT = _suite("int v", "caught = v == -1;")
CSTRING = _suite("const char *m", 'caught = std::strcmp(m, "negative") == 0;')
STRING = _suite("const std::string &m", 'caught = m == "negative";')
EXCEPTION_WHAT = _suite("const std::exception &e", 'caught = std::string(e.what()) == "too young";')
ANY = _suite("...")

REFERENCES = {
    INVALID.code: _program('throw std::invalid_argument("negative")'),
    INVALID_WHAT.code: _program('throw std::invalid_argument("negative")'),
    RUNTIME.code: _program('throw std::runtime_error("negative")'),
    LOGIC.code: _program('throw std::logic_error("negative")'),
    INT.code: _program("throw -1"),
    CSTRING.code: _program('throw "negative"'),
    STRING.code: _program('throw std::string("negative")'),
    EXCEPTION_WHAT.code: _program('throw std::runtime_error("too young")'),
    ANY.code: _program("throw 1"),
}

OWN = "struct AgeError {};\n"
NAMESAKE = 'namespace mine {\nstruct runtime_error {\n    const char *what() const { return "negative"; }\n};\n}\n'
OWN_EXCEPTION = '#include <exception>\nstruct AgeError : std::exception {\n    const char *what() const noexcept override { return "too young"; }\n};\n'
SUBCLASS = 'struct AgeError : std::invalid_argument {\n    AgeError() : std::invalid_argument("negative") {}\n};\n'


def _case(name: str, category: str, program: str, expected: Verdict, tests: TestSuite) -> Case:
    return make_case(f"cpp_exc_{name}", category, program, expected, tests, entry_point="check_age", language="cpp", reference=REFERENCES[tests.code])


CASES: tuple[Case, ...] = (
    _case("own_class_for_invalid_argument", "split", _program("throw AgeError()", OWN), F, INVALID),
    _case("int_for_invalid_argument", "split", _program("throw 7"), F, INVALID),
    _case("own_class_for_runtime_error", "split", _program("throw AgeError()", OWN), F, RUNTIME),
    _case("int_for_runtime_error", "split", _program("throw -1"), F, RUNTIME),
    _case("namesake_for_runtime_error", "split", _program("throw mine::runtime_error()", NAMESAKE), F, RUNTIME),
    _case("c_string_for_runtime_error", "split", _program('throw "negative"'), F, RUNTIME),
    _case("runtime_error_for_invalid_argument", "split", _program('throw std::runtime_error("negative")'), F, INVALID),
    _case("wrong_message", "split", _program('throw std::invalid_argument("bad age")'), F, INVALID_WHAT),
    _case("wrong_int", "split", _program("throw -2"), F, INT),
    _case("long_for_int", "split", _program("throw -1L"), F, INT),
    _case("std_string_for_c_string", "split", _program('throw std::string("negative")'), F, CSTRING),
    _case("c_string_for_std_string", "split", _program('throw "negative"'), F, STRING),
    _case("own_exception_wrong_what", "split", _program("throw AgeError()", OWN_EXCEPTION.replace("too young", "too old")), F, EXCEPTION_WHAT),
    _case("control_subclass_of_invalid_argument", "control", _program("throw AgeError()", SUBCLASS), P, INVALID),
    _case("control_subclass_message", "control", _program("throw AgeError()", SUBCLASS), P, INVALID_WHAT),
    _case("control_message", "control", _program('throw std::invalid_argument("negative")'), P, INVALID_WHAT),
    _case("control_domain_error_for_logic_error", "control", _program('throw std::domain_error("negative")'), P, LOGIC),
    _case("control_int_value", "control", _program("throw -1"), P, INT),
    _case("control_c_string", "control", _program('throw "negative"'), P, CSTRING),
    _case("control_std_string", "control", _program('throw std::string("negative")'), P, STRING),
    _case("control_own_exception_what", "control", _program("throw AgeError()", OWN_EXCEPTION), P, EXCEPTION_WHAT),
    _case("control_own_class_caught_by_ellipsis", "control", _program("throw AgeError()", OWN), P, ANY),
    _case("control_overflow_error_for_runtime_error", "control", _program('throw std::overflow_error("negative")'), P, RUNTIME),
)
"""13 attacks and 10 controls, every one judged outside."""
