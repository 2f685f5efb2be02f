// The candidate's run judged outside (C++11): included after the candidate's program, with
// EXECIR_ENTRY (the entry point's name) defined and execir_sig.h naming the reference's function
// type. main reads the calls from fd 3, one line at a time (one JSON array of argument wire values;
// the next one arrives only once this call's result is written), calls the entry point once per
// line, in order, and writes one line per call to fd 3:
//   {"ok":VALUE}  or  {"ok":VALUE,"args":[...]}  (post-call values of the arguments the reference
//   takes by non-const reference; null for the others)  or  {"raised":"TypeName"}.
// The arguments are decoded into the candidate's own parameter types (EXECIR_OWN_TYPES: its
// function type, so const references, wider integers, static/inline definitions and default
// arguments beyond the reference's all work) or, where that type cannot be named (overloads,
// templates) or its return value cannot be carried, into the reference's parameter types with the
// result converted to the reference's return type. The call is made by name, as the tests make it.
// Nothing in this process is trusted: the judge decodes what it writes with the reference's types.
#ifndef EXECIR_CALLER_H
#define EXECIR_CALLER_H
#include <cxxabi.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <tuple>
#include <typeinfo>
#include <vector>
#include "execir_sig.h"  // first: the containers it includes get their codecs
#include "execir_wire.h"

namespace execir_caller {

template <class... T>
struct Types {};

template <class F>
struct Params;
template <class R, class... P>
struct Params<R(P...)> {
    typedef R Result;
    typedef Types<P...> All;
};
template <class R, class... P>
struct Params<R (*)(P...)> : Params<R(P...)> {};

// The first N types of a list.
template <size_t N, class In, class Out = Types<>>
struct Take;
template <class... O>
struct Take<0, Types<>, Types<O...>> {
    typedef Types<O...> type;
};
template <class H, class... T, class... O>
struct Take<0, Types<H, T...>, Types<O...>> {
    typedef Types<O...> type;
};
template <size_t N, class H, class... T, class... O>
struct Take<N, Types<H, T...>, Types<O...>> : Take<N - 1, Types<T...>, Types<O..., H>> {};

struct Invoke {
    template <class... T>
    auto operator()(T &...a) const -> decltype(EXECIR_ENTRY(a...)) {
        return EXECIR_ENTRY(a...);
    }
};

typedef Params<execir_ref_sig> Reference;

template <class Decoded, class Refs>
struct Caller;

template <class... D, class... Q>
struct Caller<Types<D...>, Types<Q...>> {
    typedef std::tuple<typename std::decay<D>::type...> Held;

    template <size_t I>
    static bool decode(execir_wire::Reader &, Held &, execir_wire::Seq<>) { return true; }
    template <size_t I, size_t J, size_t... K>
    static bool decode(execir_wire::Reader &r, Held &held, execir_wire::Seq<J, K...>) {
        if (J > 0 && !execir_wire::eat(r, ',')) return false;
        return execir_wire::get(r, std::get<J>(held)) && decode<I>(r, held, execir_wire::Seq<K...>());
    }

    template <class Q1>
    struct After {
        template <class T>
        static void put(std::string &out, const T &value) {
            if (execir_wire::Mutable<Q1>::value)
                execir_wire::put(out, value);
            else
                out += "null";
        }
    };

    template <size_t... K>
    static void after(std::string &out, Held &held, execir_wire::Seq<K...>) {
        int unused[] = {0, ((K > 0 ? (void)(out += ',') : (void)0), After<Q>::put(out, std::get<K>(held)), 0)...};
        (void)unused;
    }

    template <class Out, size_t... K>
    static void result(std::string &out, Held &held, execir_wire::Seq<K...>, Out *) {
#ifdef EXECIR_OWN_TYPES
        auto &&value = Invoke()(std::get<K>(held)...);
        execir_wire::put(out, value);
#else
        typename std::decay<Out>::type value = Invoke()(std::get<K>(held)...);
        execir_wire::put(out, value);
#endif
    }
    template <size_t... K>
    static void result(std::string &out, Held &held, execir_wire::Seq<K...>, void *) {
        Invoke()(std::get<K>(held)...);
        out += "null";
    }

    static std::string call(const std::string &line) {
        typedef typename execir_wire::MakeSeq<sizeof...(D)>::type Indexes;
        Held held;
        execir_wire::Reader r = {line.data(), line.data() + line.size(), true};
        if (!execir_wire::eat(r, '[') || !decode<0>(r, held, Indexes()) || !execir_wire::eat(r, ']') || r.p != r.end) return "{\"undecodable\":true}";
        std::string out = "{\"ok\":";
        typedef typename Reference::Result Out;
        result(out, held, Indexes(), (typename std::conditional<std::is_void<Out>::value, void, Out>::type *)nullptr);
        bool any = false;
        int unused[] = {0, (any = any || execir_wire::Mutable<Q>::value, 0)...};
        (void)unused;
        if (any) {
            out += ",\"args\":[";
            after(out, held, Indexes());
            out += ']';
        }
        return out + "}";
    }
};

template <class Refs>
struct Decoded;
template <class... Q>
struct Decoded<Types<Q...>> {
#ifdef EXECIR_OWN_TYPES
    typedef typename Take<sizeof...(Q), typename Params<decltype(&EXECIR_ENTRY)>::All>::type type;
#else
    typedef Types<Q...> type;
#endif
};

typedef Caller<typename Decoded<Reference::All>::type, Reference::All> Run;

inline std::string raised_name(const std::type_info &type) {
    int status = 0;
    char *name = abi::__cxa_demangle(type.name(), nullptr, nullptr, &status);
    std::string text = status == 0 && name != nullptr ? name : type.name();
    std::free(name);
    std::string line = "{\"raised\":";
    execir_wire::put(line, text);
    return line + "}";
}

inline std::string call_one(const std::string &line) {
    try {
        return Run::call(line);
    } catch (const std::exception &e) {
        return raised_name(typeid(e));
    } catch (...) {
        return "{\"raised\":\"unknown\"}";
    }
}

}  // namespace execir_caller

// One call line from fd 3 (the host writes call k + 1 only once result k is in, and ends the
// calls by shutting the channel); false at the end of the calls.
static bool execir_next_call(std::string &pending, std::string &line) {
    for (;;) {
        size_t end = pending.find('\n');
        if (end != std::string::npos) {
            line.assign(pending, 0, end);
            pending.erase(0, end + 1);
            return true;
        }
        char buf[1 << 16];
        long n = ::read(3, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        pending.append(buf, (size_t)n);
    }
}

int main() {
    std::string pending, line;
    while (execir_next_call(pending, line)) execir_wire::write_all(3, execir_caller::call_one(line) + "\n");
    return 0;
}

#endif
