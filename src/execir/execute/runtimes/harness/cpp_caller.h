// The candidate's run judged outside (C++11): included BEFORE the candidate's program (so none of
// the program's #defines reaches this code), with execir_sig.h naming the reference's function
// type. The plan appends a tail after the program (cpp_split.call_tail: it #undefs the keywords it
// uses and names only fresh identifiers) that binds the entry point and calls serve(). serve reads
// the calls from fd 3, one line at a time (one JSON array of argument wire values; the next one
// arrives only once this call's result is written), calls the entry point once per line, in
// order, and writes one line per call to fd 3:
//   {"ok":VALUE}  or  {"ok":VALUE,"args":[...]}  (post-call values of the arguments the reference
//   takes by non-const reference; null for the others)  or what it threw (call_one):
//   {"raised":"TypeName","base":"std::invalid_argument","what":"..."}, {"raised":"int","value":3},
//   {"raised":"const char*","what":"..."} or {"raised":"TypeName"}.
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
#include <new>
#include <stdexcept>
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

typedef Params<execir_ref_sig> Reference;

// Invoke: the tail's function object calling the entry point by name.
template <class Decoded, class Refs, class Invoke>
struct Caller;

template <class... D, class... Q, class Invoke>
struct Caller<Types<D...>, Types<Q...>, Invoke> {
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
        execir_wire::Reader r = {line.data(), line.data() + line.size(), true, false};
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

// Own: the candidate's function pointer type (with EXECIR_OWN_TYPES), else unused.
template <class Refs, class Own>
struct Decoded;
template <class... Q, class Own>
struct Decoded<Types<Q...>, Own> {
#ifdef EXECIR_OWN_TYPES
    typedef typename Take<sizeof...(Q), typename Params<Own>::All>::type type;
#else
    typedef Types<Q...> type;
#endif
};

inline std::string type_name(const std::type_info *type) {
    if (type == nullptr) return "unknown";
    int status = 0;
    char *name = abi::__cxa_demangle(type->name(), nullptr, nullptr, &status);
    std::string text = status == 0 && name != nullptr ? name : type->name();
    std::free(name);
    return text;
}

// The most derived standard exception class an exception is (what the tests' catch clauses can
// name): a candidate's own class derived from std::invalid_argument is caught as one.
inline const char *standard_base(const std::exception &e) {
    if (dynamic_cast<const std::out_of_range *>(&e) != nullptr) return "std::out_of_range";
    if (dynamic_cast<const std::invalid_argument *>(&e) != nullptr) return "std::invalid_argument";
    if (dynamic_cast<const std::length_error *>(&e) != nullptr) return "std::length_error";
    if (dynamic_cast<const std::domain_error *>(&e) != nullptr) return "std::domain_error";
    if (dynamic_cast<const std::logic_error *>(&e) != nullptr) return "std::logic_error";
    if (dynamic_cast<const std::range_error *>(&e) != nullptr) return "std::range_error";
    if (dynamic_cast<const std::overflow_error *>(&e) != nullptr) return "std::overflow_error";
    if (dynamic_cast<const std::underflow_error *>(&e) != nullptr) return "std::underflow_error";
    if (dynamic_cast<const std::runtime_error *>(&e) != nullptr) return "std::runtime_error";
    if (dynamic_cast<const std::bad_alloc *>(&e) != nullptr) return "std::bad_alloc";
    if (dynamic_cast<const std::bad_cast *>(&e) != nullptr) return "std::bad_cast";
    if (dynamic_cast<const std::bad_typeid *>(&e) != nullptr) return "std::bad_typeid";
    if (dynamic_cast<const std::bad_exception *>(&e) != nullptr) return "std::bad_exception";
    return "std::exception";
}

inline std::string raised(const std::string &name, const char *field, const std::string *text) {
    std::string line = "{\"raised\":";
    execir_wire::put(line, name);
    if (field != nullptr) {
        line += field;
        execir_wire::put(line, *text);
    }
    return line + "}";
}

template <class T>
std::string raised_value(const char *name, const T &value) {
    std::string line = "{\"raised\":";
    execir_wire::put(line, std::string(name));
    line += ",\"value\":";
    execir_wire::put(line, value);
    return line + "}";
}

// What the call threw, as the tests could observe it: a std::exception by its most derived
// standard class and its what(); a thrown number by its type and value; a C string or std::string
// by its text; anything else by its type name only (the judge throws a type no catch clause but
// catch (...) names, as the candidate's own class is to the tests).
template <class Run>
std::string call_one(const std::string &line) {
    try {
        return Run::call(line);
    } catch (const std::exception &e) {
        std::string out = "{\"raised\":";
        execir_wire::put(out, type_name(&typeid(e)));
        out += ",\"base\":";
        execir_wire::put(out, std::string(standard_base(e)));
        out += ",\"what\":";
        execir_wire::put(out, std::string(e.what()));
        return out + "}";
    } catch (int v) {
        return raised_value("int", v);
    } catch (long v) {
        return raised_value("long", v);
    } catch (long long v) {
        return raised_value("long long", v);
    } catch (unsigned v) {
        return raised_value("unsigned int", v);
    } catch (unsigned long v) {
        return raised_value("unsigned long", v);
    } catch (unsigned long long v) {
        return raised_value("unsigned long long", v);
    } catch (short v) {
        return raised_value("short", v);
    } catch (bool v) {
        return raised_value("bool", v);
    } catch (double v) {
        return raised_value("double", v);
    } catch (float v) {
        return raised_value("float", v);
    } catch (const char *v) {
        std::string text = v != nullptr ? v : "";
        return raised("const char*", ",\"what\":", &text);
    } catch (const std::string &v) {
        return raised("std::string", ",\"what\":", &v);
    } catch (...) {
        return raised(type_name(abi::__cxa_current_exception_type()), nullptr, nullptr);
    }
}

// One call line from fd 3 (the host writes call k + 1 only once result k is in, and ends the
// calls by shutting the channel); false at the end of the calls.
inline bool next_call(std::string &pending, std::string &line) {
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

// The calls run: Invoke calls the entry point by name (the tail's), Own is its function type.
template <class Invoke, class Own>
int serve() {
    typedef Caller<typename Decoded<Reference::All, Own>::type, Reference::All, Invoke> Run;
    std::string pending, line;
    while (next_call(pending, line)) execir_wire::write_all(3, call_one<Run>(line) + "\n");
    return 0;
}

}  // namespace execir_caller

#endif
