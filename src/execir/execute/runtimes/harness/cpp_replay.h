// The entry point of the trusted record and judge runs (C++11; see runtimes/cpp_split.py).
//
// The reference's definition of the entry point is renamed (execir_reference_<name>) and the name
// is bound to an Entry object whose call operator takes exactly the reference's parameter types
// (generated from its function type, so no signature is parsed). The tests call it as they would
// call the function. EXECIR_REPLAY=record: each call writes its arguments' wire text on fd 3, then
// calls the reference. EXECIR_REPLAY=judge: each call's arguments must be line i of the recorded
// calls, and it returns the candidate's result line i decoded into the reference's return type
// (arguments the reference takes by non-const reference get the candidate's values after the call).
#ifndef EXECIR_REPLAY_H
#define EXECIR_REPLAY_H
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>
#include "execir_wire.h"

namespace execir_replay {

struct State {
    bool judge;
    size_t next;
    std::vector<std::string> calls, results;
};

inline std::vector<std::string> read_lines(const char *path) {
    std::vector<std::string> lines;
    FILE *f = std::fopen(path, "rb");
    if (f == nullptr) return lines;
    std::string text;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) lines.push_back(text.substr(start, end - start));
    return lines;
}

inline State &state() {
    static State s;
    static bool loaded = false;
    if (!loaded) {
        loaded = true;
        const char *mode = std::getenv("EXECIR_REPLAY");
        s.judge = mode == nullptr || std::strcmp(mode, "record") != 0;
        s.next = 0;
        if (s.judge) {
            s.calls = read_lines("@CALLS_FILE@");
            s.results = read_lines("@RESULTS_FILE@");
        }
    }
    return s;
}

[[noreturn]] inline void report(const char *key, size_t index, const std::string *args, int status) {
    std::string line = "{\"";
    line += key;
    line += "\": " + std::to_string(index) + "}\n";
    if (args != nullptr) line += *args + "\n";
    execir_wire::write_all(3, line);
    _exit(status);
}

[[noreturn]] inline void raise(const std::string &name) {
    if (name == "std::out_of_range") throw std::out_of_range(name);
    if (name == "std::invalid_argument") throw std::invalid_argument(name);
    if (name == "std::length_error") throw std::length_error(name);
    if (name == "std::domain_error") throw std::domain_error(name);
    if (name == "std::logic_error") throw std::logic_error(name);
    if (name == "std::range_error") throw std::range_error(name);
    if (name == "std::overflow_error") throw std::overflow_error(name);
    if (name == "std::underflow_error") throw std::underflow_error(name);
    throw std::runtime_error(name);
}

// The candidate's values for the arguments after the call: for each parameter the reference takes
// by non-const lvalue reference, null (unchanged) or a value of its type; null for the others.
template <size_t I, class... A>
struct After;
template <size_t I>
struct After<I> {
    template <class Held>
    static bool read(execir_wire::Reader &, Held &, bool *) { return true; }
    template <class Held, class Target>
    static void apply(Held &, const bool *, Target &) {}
};
template <size_t I, class H, class... A>
struct After<I, H, A...> {
    template <class Held>
    static bool read(execir_wire::Reader &r, Held &held, bool *given) {
        if (I > 0 && !execir_wire::eat(r, ',')) return false;
        given[I] = false;
        if (!execir_wire::eat_word(r, "null")) {
            if (!execir_wire::Mutable<H>::value || !execir_wire::get(r, std::get<I>(held))) return false;
            given[I] = true;
        }
        return After<I + 1, A...>::read(r, held, given);
    }
    template <class Held, class Target>
    static void apply(Held &held, const bool *given, Target &target) {
        if (given[I]) Assign<execir_wire::Mutable<H>::value>::to(std::get<I>(target), std::get<I>(held));
        After<I + 1, A...>::apply(held, given, target);
    }
    template <bool Yes, class Unused = void>
    struct Assign {
        template <class T, class V>
        static void to(T &t, V &v) { t = std::move(v); }
    };
    template <class Unused>
    struct Assign<false, Unused> {
        template <class T, class V>
        static void to(T &, V &) {}
    };
};

template <class R>
struct Value {
    typedef typename std::decay<R>::type Held;
    static bool read(execir_wire::Reader &r, Held &v) { return execir_wire::get(r, v); }
};
template <>
struct Value<void> {
    struct Held {};
    static bool read(execir_wire::Reader &r, Held &) { return execir_wire::eat_word(r, "null"); }
};

template <class R, class Held>
struct Give {
    static R from(Held &v) { return std::move(v); }
};
template <class Held>
struct Give<void, Held> {
    static void from(Held &) {}
};

template <class F>
struct Entry;

template <class R, class... A>
struct Entry<R(A...)> {
    static_assert(!std::is_reference<R>::value, "execir: an entry point returning a reference is not replayed");
    R (*reference)(A...);
    constexpr explicit Entry(R (*f)(A...)) : reference(f) {}

    R operator()(A... a) const {
        std::string line = execir_wire::encode_args(a...);
        State &s = state();
        size_t i = s.next++;
        if (!s.judge) {
            execir_wire::write_all(3, line + "\n");
            return reference(std::forward<A>(a)...);
        }
        if (i >= s.calls.size() || s.calls[i] != line) report("need", i, &line, @NEED_STATUS@);
        if (i >= s.results.size()) report("missing", i, nullptr, 1);
        const std::string &text = s.results[i];
        execir_wire::Reader r = {text.data(), text.data() + text.size(), false};
        if (execir_wire::eat_word(r, "{\"raised\":")) {
            std::string name;
            if (!execir_wire::get_string(r, name) || !execir_wire::eat(r, '}') || r.p != r.end) report("malformed", i, nullptr, 1);
            raise(name);
        }
        typename Value<R>::Held value;
        std::tuple<typename std::decay<A>::type...> after;
        bool given[sizeof...(A) + 1] = {false};
        if (!execir_wire::eat_word(r, "{\"ok\":") || !Value<R>::read(r, value)) report("malformed", i, nullptr, 1);
        if (execir_wire::eat_word(r, ",\"args\":[")) {
            if (!After<0, A...>::read(r, after, given) || !execir_wire::eat(r, ']')) report("malformed", i, nullptr, 1);
        }
        if (!execir_wire::eat(r, '}') || r.p != r.end) report("malformed", i, nullptr, 1);
        std::tuple<A &...> targets(a...);
        After<0, A...>::apply(after, given, targets);
        return Give<R, typename Value<R>::Held>::from(value);
    }
};

// Names the reference's function type in the object's symbols (read back with nm -C by the
// runtime, which gives the candidate's caller the reference's parameter types).
template <class F>
void signature() {}

}  // namespace execir_replay

#endif
