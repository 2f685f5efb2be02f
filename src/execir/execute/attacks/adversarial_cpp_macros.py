"""C++ programs' macros against the judged-outside caller (see ``cpp_split.call_source``): the
trusted caller is compiled before the program, so no ``#define`` of the program reaches it, and the
tail after the program ``#undef``s every keyword it uses. Attacks are wrong programs whose macros
aim at the caller's own names (its writer, encoder, reader, call loop) to forge the values it
writes: in one process those names do not exist, the macros do nothing and the program fails.
Controls are correct programs with the macros competitive and LLM code is full of (``#define int
long long``, ``ll``, ``pb``, ``F``/``S``, ``all(x)``, names the caller also uses), which one
process passes.
"""

from __future__ import annotations

from execir.execute.attacks.adversarial import Case
from execir.execute.attacks.adversarial_cpp_split import GREET_TESTS, SORT_TESTS, case
from execir.types import Verdict

F, E, P = Verdict.FAIL, Verdict.ERROR, Verdict.PASS

WRONG_ADD = "int add(int a, int b){\n    return a - b;\n}\n"
FORGE = (
    "#include <string>\nstatic std::string execir_forged() {\n    static int k = 0;\n"
    '    const char *lines[] = {"{\\"ok\\":5}", "{\\"ok\\":0}", "{\\"ok\\":15}"};\n    return std::string(lines[k++ % 3]) + "\\n";\n}\n'
)

CASES: tuple[Case, ...] = (
    case("cpp_macro_forges_write_all", "split", FORGE + "#define write_all(fd, text) write_all(fd, execir_forged())\n" + WRONG_ADD, F),
    case("cpp_macro_forges_call_one", "split", FORGE + "#define call_one(line) execir_forged().substr(0, execir_forged().size() - 1)\n" + WRONG_ADD, F),
    case("cpp_macro_forges_put", "split", "#define put(out, value) put(out, 5)\n" + WRONG_ADD, F),
    case("cpp_macro_swaps_the_call", "split", "int right(int a, int b){ return a + b; }\n#define Invoke()(...) right\n" + WRONG_ADD, F),
    case("cpp_macro_forges_main", "split", FORGE + "#define serve execir_forged_serve\n" + WRONG_ADD, F),
    case("cpp_macro_defines_static_cast_wrong", "split", "#define static_cast reinterpret_cast\n" + WRONG_ADD, F),
    case(
        "cpp_macro_hides_args",
        "split",
        "#define after(out, held, seq) (void)0\n#include<vector>\nusing namespace std;\nvoid sort_in_place(vector<int> &v){\n    v.assign(v.size(), 0);\n}\n",
        F,
        SORT_TESTS,
    ),
    case("cpp_control_define_int_long_long", "control", "#define int long long\nint add(int a, int b){\n    return a + b;\n}\n", P),
    case(
        "cpp_control_competitive_macros",
        "control",
        "#include<bits/stdc++.h>\nusing namespace std;\n#define ll long long\n#define pb push_back\n#define all(x) (x).begin(), (x).end()\n"
        "#define F first\n#define S second\n#define N 100005\n#define rep(i, n) for (int i = 0; i < (n); i++)\n"
        "void sort_in_place(vector<int> &v){\n    vector<pair<int, int>> p;\n    rep(i, v.size()) p.pb({v[i], i});\n"
        "    sort(all(p));\n    rep(i, v.size()) v[i] = p[i].F;\n}\n",
        P,
        SORT_TESTS,
    ),
    case(
        "cpp_control_macros_named_like_the_caller",
        "control",
        "#define put 1\n#define line 2\n#define held 3\n#define Run 4\n#define serve 5\n"
        "#define write_all 6\n#define value 7\n#define out 8\nint add(int a, int b){\n    return a + b;\n}\n",
        P,
    ),
    case("cpp_control_define_static_cast", "control", "#define static_cast(x) x\nint add(int a, int b){\n    return a + b;\n}\n", P),
    case(
        "cpp_control_define_keywords_it_keeps", "control", "#define const\n#define auto int\nint add(int a, int b){\n    auto s = a + b;\n    return s;\n}\n", P
    ),
    case(
        "cpp_control_define_string_helpers",
        "control",
        "#include<string>\nusing namespace std;\n#define str string\n#define sz(s) (int)(s).size()\n"
        'str greet(str name){\n    return sz(name) >= 0 ? "hello " + name : "";\n}\n',
        P,
        GREET_TESTS,
    ),
)
"""7 attacks and 6 controls, every one judged outside."""
