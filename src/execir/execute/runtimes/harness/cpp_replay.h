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
#include <exception>
#include <new>
#include <stdexcept>
#include <typeinfo>
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

// A candidate's exception of a class of its own (not a std::exception): only catch (...) catches
// it, as only catch (...) or the candidate's own class name (which the tests cannot name) would.
struct Foreign {
    std::string name;
};

// A std::exception-derived class of the candidate's own whose nearest standard base is
// std::exception itself: caught by catch (std::exception&), with the candidate's what().
struct Exception : std::exception {
    std::string text;
    explicit Exception(const std::string &t) : text(t) {}
    const char *what() const noexcept override { return text.c_str(); }
};

// What the candidate's call threw, thrown again for the tests: the standard class (the candidate's
// own classes become their most derived standard base) with the candidate's what(), or a number
// of its own type and value, or a C string, or a std::string; false: not a shape the caller writes.
inline bool raise_standard(const std::string &base, const std::string &what) {
    if (base == "std::out_of_range") throw std::out_of_range(what);
    if (base == "std::invalid_argument") throw std::invalid_argument(what);
    if (base == "std::length_error") throw std::length_error(what);
    if (base == "std::domain_error") throw std::domain_error(what);
    if (base == "std::logic_error") throw std::logic_error(what);
    if (base == "std::range_error") throw std::range_error(what);
    if (base == "std::overflow_error") throw std::overflow_error(what);
    if (base == "std::underflow_error") throw std::underflow_error(what);
    if (base == "std::runtime_error") throw std::runtime_error(what);
    if (base == "std::bad_alloc") throw std::bad_alloc();
    if (base == "std::bad_cast") throw std::bad_cast();
    if (base == "std::bad_typeid") throw std::bad_typeid();
    if (base == "std::bad_exception") throw std::bad_exception();
    if (base == "std::exception") throw Exception(what);
    return false;
}

template <class T>
bool raise_number(execir_wire::Reader &r) {
    T value;
    if (!execir_wire::get(r, value) || !execir_wire::eat(r, '}') || r.p != r.end) return false;
    throw value;
}

inline bool raise_value(const std::string &name, execir_wire::Reader &r) {
    if (name == "int") return raise_number<int>(r);
    if (name == "long") return raise_number<long>(r);
    if (name == "long long") return raise_number<long long>(r);
    if (name == "unsigned int") return raise_number<unsigned>(r);
    if (name == "unsigned long") return raise_number<unsigned long>(r);
    if (name == "unsigned long long") return raise_number<unsigned long long>(r);
    if (name == "short") return raise_number<short>(r);
    if (name == "bool") return raise_number<bool>(r);
    if (name == "double") return raise_number<double>(r);
    if (name == "float") return raise_number<float>(r);
    return false;
}

// false: malformed (nothing thrown)
inline bool raise(execir_wire::Reader &r) {
    std::string name, base, what;
    if (!execir_wire::get_string(r, name)) return false;
    if (execir_wire::eat_word(r, ",\"value\":")) return raise_value(name, r);
    bool has_base = execir_wire::eat_word(r, ",\"base\":");
    if (has_base && !execir_wire::get_string(r, base)) return false;
    bool has_what = execir_wire::eat_word(r, ",\"what\":");
    if (has_what && !execir_wire::get_string(r, what)) return false;
    if (!execir_wire::eat(r, '}') || r.p != r.end) return false;
    if (has_base) return has_what && raise_standard(base, what);
    if (has_what && name == "const char*") {
        const std::string *kept = new std::string(what);  // outlives the catch, as a literal would
        throw kept->c_str();
    }
    if (has_what && name == "std::string") throw what;
    if (has_what) return false;
    throw Foreign{name};
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
        execir_wire::Reader r = {text.data(), text.data() + text.size(), false, false};
        if (execir_wire::eat_word(r, "{\"raised\":") && !raise(r)) report("malformed", i, nullptr, 1);
        typename Value<R>::Held value;
        std::tuple<typename std::decay<A>::type...> after;
        bool given[sizeof...(A) + 1] = {false};
        if (!execir_wire::eat_word(r, "{\"ok\":") || !Value<R>::read(r, value)) report("malformed", i, nullptr, 1);
        if (execir_wire::eat_word(r, ",\"args\":[")) {
            if (!After<0, A...>::read(r, after, given) || !execir_wire::eat(r, ']')) report("malformed", i, nullptr, 1);
        }
        if (!execir_wire::eat(r, '}') || r.p != r.end) report("malformed", i, nullptr, 1);
        if (r.inexact) report("inexact", i, nullptr, 1);
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
