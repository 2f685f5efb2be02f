// Put before a C++ program (and its tests) to probe whether a run reaches undefined behaviour of
// the kinds below: reaching it writes EXECIR_UB_MARK to stdout (unbuffered) and ends the process
// with status 0, so the run's whole stdout is the mark exactly when it was reached before the
// tests failed. Used by execir.construct.undefined_behaviour; never part of a verdict's run.
//  * flowing off the end of a non-void function: the instrumentation inserts a call to
//    execir_ub_reached() before the closing brace of every non-void function's body;
//  * an out-of-range index, front()/back()/pop_back() of an empty container and the other
//    preconditions libstdc++ checks under _GLIBCXX_ASSERTIONS, routed here instead of abort().
//  The functions are compiled unoptimised, as the native tests' build is (-O0): an optimiser
//  that assumes the absence of undefined behaviour would move where a run ends up.
#pragma GCC optimize("O0")
#define _GLIBCXX_ASSERTIONS 1
#include <bits/c++config.h>
#include <unistd.h>

[[noreturn]] static void execir_ub_reached() {
    static const char mark[] = "execir-undefined-behaviour-reached\n";
    if (write(1, mark, sizeof mark - 1) < 0) {
        _exit(0);
    }
    _exit(0);
}

#undef __glibcxx_assert
#define __glibcxx_assert(cond)                              \
    do {                                                    \
        if (__builtin_expect(!bool(cond), false)) {         \
            execir_ub_reached();                            \
        }                                                   \
    } while (false)
