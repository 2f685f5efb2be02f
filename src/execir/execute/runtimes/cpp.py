"""C++ (g++): HumanEval-X style tests (includes + ``main()`` with asserts) appended after the program.

The tests' ``main`` is renamed by a macro defined *after* the candidate's code, and the real
``main`` lives in a separate translation unit (``runner.cpp``) that calls the tests and then writes
the nonce to fd 3: a candidate that exits early (a static initializer, ``atexit``, a signal
handler calling ``_exit(0)``) never writes it. The tests re-include ``<assert.h>`` after
``#undef NDEBUG``, so a candidate's ``#define NDEBUG`` or ``#define assert(x)`` cannot disarm them.
"""

from __future__ import annotations

from execir.execute.runtimes.base import Plan, Profile, Runtime, Toolchain

GUARD = "\n#undef NDEBUG\n#undef assert\n#include <assert.h>\n#undef main\n#define main execir_tests_main\n"
RUNNER = r"""#include <cstdlib>
#include <cstring>
#include <unistd.h>
int execir_tests_main();
int main() {
    int status = execir_tests_main();
    if (status != 0) return status;
    const char *nonce = std::getenv("EXECIR_NONCE");
    if (nonce == nullptr) return 122;
    if (write(3, nonce, std::strlen(nonce)) < 0 || write(3, "\n", 1) < 0) return 123;
    return 0;
}
"""
FLAGS = ("-std=c++17", "-O1", "-pipe", "-w")


class CppRuntime(Runtime):
    def discover(self) -> Toolchain:
        paths = self.require("g++")
        return Toolchain(self.name, self.version_of([paths["g++"], "--version"]), paths)

    def native_plan(self, toolchain: Toolchain, program: str, tests: str) -> Plan:
        files = {"main.cpp": program + GUARD + tests + "\n", "runner.cpp": RUNNER}
        return Plan(files, ("./prog",), (toolchain.paths["g++"], *FLAGS, "-o", "prog", "main.cpp", "runner.cpp"))

    def stdio_plan(self, toolchain: Toolchain, program: str) -> Plan:
        return Plan({"main.cpp": program}, ("./prog",), (toolchain.paths["g++"], *FLAGS, "-o", "prog", "main.cpp"))


RUNTIME = CppRuntime("cpp", (".cpp", ".cc", ".cxx"), ("g++",), Profile(address_space=True, nproc=64))
