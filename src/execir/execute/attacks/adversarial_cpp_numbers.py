"""C++ results wider than the reference's type, judged outside: the tests, compiled with the
candidate in one process, compare the candidate's own ``double``; the judge holds the reference's
``float``. A value the float holds exactly crosses; a wider one is UNDECIDED (it would be rounded
into a float the tests might accept), never PASS. Attacks are wrong by less than a float can show.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case, make_case
from execir.types import TestSuite, Verdict

F, U, P = Verdict.FAIL, Verdict.UNDECIDED, Verdict.PASS

HALF_REF = "float half(float x){\n    return x / 2;\n}\n"
HALF_TESTS = TestSuite(
    "native",
    "#include<math.h>\nfloat half(float x);\n#undef NDEBUG\n#include<assert.h>\nint main(){\n"
    "    assert (half(1.0) == 0.5);\n    assert (half(3) == 1.5);\n    assert (fabs(half(5) - 2.5) < 1e-6);\n}\n",
)
HALVES_REF = "#include<vector>\nusing namespace std;\nvector<float> halves(vector<float> v){\n    for (auto &x : v) x /= 2;\n    return v;\n}\n"
HALVES_TESTS = TestSuite(
    "native",
    "#include<vector>\nusing namespace std;\nvector<float> halves(vector<float> v);\n#undef NDEBUG\n#include<assert.h>\nint main(){\n"
    "    vector<float> h = halves({1.0, 3.0});\n    assert (h.size() == 2 && h[0] == 0.5 && h[1] == 1.5);\n}\n",
)


def _half(name: str, category: str, program: str, expected: set[Verdict] | Verdict) -> Case:
    return make_case(f"cpp_num_{name}", category, program, expected, HALF_TESTS, entry_point="half", language="cpp", reference=HALF_REF)


def _halves(name: str, category: str, program: str, expected: set[Verdict] | Verdict) -> Case:
    return make_case(f"cpp_num_{name}", category, program, expected, HALVES_TESTS, entry_point="halves", language="cpp", reference=HALVES_REF)


CASES: tuple[Case, ...] = (
    _half("double_off_by_a_billionth", "split", "double half(double x){\n    return x / 2 + 1e-9;\n}\n", {F, U}),
    _half("long_double_off", "split", "long double half(long double x){\n    return x / 2 + 1e-12L;\n}\n", {F, U}),
    _half("double_off_only_for_odd", "split", "double half(double x){\n    return x == 1.0 ? 0.5 : x / 2 - 1e-10;\n}\n", {F, U}),
    _halves(
        "vector_double_off",
        "split",
        "#include<vector>\nusing namespace std;\nvector<double> halves(vector<float> v){\n"
        "    vector<double> out;\n    for (float x : v) out.push_back(x / 2.0 + 1e-10);\n    return out;\n}\n",
        {F, U},
    ),
    _halves(
        "vector_double_off_last",
        "split",
        "#include<vector>\nusing namespace std;\nvector<double> halves(vector<double> v){\n"
        "    for (auto &x : v) x /= 2;\n    v.back() += 1e-11;\n    return v;\n}\n",
        {F, U},
    ),
    _half("control_double_exact", "control", "double half(double x){\n    return x / 2;\n}\n", P),
    _half("control_float", "control", "float half(float x){\n    return x * 0.5f;\n}\n", P),
    _half("control_double_parameter_float_result", "control", "float half(double x){\n    return x / 2;\n}\n", P),
    _half("control_long_double_exact", "control", "long double half(long double x){\n    return x / 2;\n}\n", P),
    _halves(
        "control_vector_double_exact",
        "control",
        "#include<vector>\nusing namespace std;\nvector<double> halves(vector<double> v){\n    for (auto &x : v) x /= 2;\n    return v;\n}\n",
        P,
    ),
)
"""5 attacks and 5 controls, every one judged outside."""
