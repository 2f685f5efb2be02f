// ExecIR's wire codec for C++ values judged outside the candidate's process (C++11, header only).
//
// One value is one JSON document, written without whitespace and in ASCII only:
//   bool                      true / false
//   integral types, char      a decimal integer
//   float, double, long double a JSON string holding the exact value in C's hexadecimal form ("%a":
//                             "0x1.8p+1", "-0x0p+0", "inf", "-nan"), so every value round-trips
//   std::string, const char*  a JSON string of its bytes: printable ASCII as is, every other byte
//                             as \u00XX (so any byte sequence, UTF-8 or not, round-trips)
//   sequences and sets        an array of their elements in iteration order
//   maps                      an array of [key, value] arrays
//   pair, tuple, array        an array
// Decoding is directed by the C++ type (never by the text), so nesting deeper than the type is
// malformed at once. The strict reader (the trusted judge) keeps values exact: an integer must fit
// the target type, a floating value goes into an integral type only where it is exactly one of its
// values, any integer into a bool (non-zero is true, as C++ converts it). The lenient reader (the
// candidate's caller) converts between arithmetic types as C++'s implicit conversions would.
#ifndef EXECIR_WIRE_H
#define EXECIR_WIRE_H
// The codecs of std::map, set, unordered_map, unordered_set, deque, list, array and tuple are
// defined only where their header was included before this one (by the program, the reference or
// the runtime, which includes the ones the reference's signature names): a container nobody
// included cannot be a value here, and the caller's compile does not parse them for nothing.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace execir_wire {

struct Reader {
    const char *p;
    const char *end;
    bool lenient;
    bool inexact;  // a number was read into a narrower floating type than it was written from
};

inline bool eat(Reader &r, char c) {
    if (r.p < r.end && *r.p == c) {
        r.p++;
        return true;
    }
    return false;
}

inline bool eat_word(Reader &r, const char *word) {
    size_t n = std::strlen(word);
    if ((size_t)(r.end - r.p) < n || std::memcmp(r.p, word, n) != 0) return false;
    r.p += n;
    return true;
}

inline void put_string(std::string &out, const char *data, size_t size) {
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)data[i];
        if (c == '"' || c == '\\') {
            out += '\\';
            out += (char)c;
        } else if (c >= 0x20 && c < 0x7f) {
            out += (char)c;
        } else {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    out += '"';
}

inline int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// A JSON string token whose \u escapes name bytes (00..ff), as put_string writes them.
inline bool get_string(Reader &r, std::string &out) {
    if (!eat(r, '"')) return false;
    out.clear();
    while (r.p < r.end) {
        unsigned char c = (unsigned char)*r.p++;
        if (c == '"') return true;
        if (c < 0x20 || c >= 0x7f) return false;
        if (c != '\\') {
            out += (char)c;
            continue;
        }
        if (r.p >= r.end) return false;
        char e = *r.p++;
        switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                if (r.end - r.p < 4) return false;
                int v = 0;
                for (int k = 0; k < 4; k++) {
                    int d = hex_digit(r.p[k]);
                    if (d < 0) return false;
                    v = v * 16 + d;
                }
                if (v > 0xff) return false;
                r.p += 4;
                out += (char)(unsigned char)v;
                break;
            }
            default: return false;
        }
    }
    return false;
}

// An integer token: sign and magnitude (at most 2**64 - 1).
inline bool get_integer(Reader &r, bool &negative, unsigned long long &magnitude) {
    negative = eat(r, '-');
    if (r.p >= r.end || *r.p < '0' || *r.p > '9') return false;
    magnitude = 0;
    while (r.p < r.end && *r.p >= '0' && *r.p <= '9') {
        unsigned digit = (unsigned)(*r.p++ - '0');
        if (magnitude > (std::numeric_limits<unsigned long long>::max() - digit) / 10) return false;
        magnitude = magnitude * 10 + digit;
    }
    return true;
}

// A number as the lenient reader takes it: an integer or decimal token, or a floating string.
inline bool get_any_number(Reader &r, long double &value) {
    std::string text;
    if (r.p < r.end && *r.p == '"') {
        if (!get_string(r, text)) return false;
    } else {
        while (r.p < r.end && std::strchr("+-0123456789.eE", *r.p)) text += *r.p++;
    }
    if (text.empty()) return false;
    char *stop = nullptr;
    value = std::strtold(text.c_str(), &stop);
    return stop == text.c_str() + text.size();
}

template <class T, class Enable = void>
struct Codec;  // no specialisation: a type the wire cannot carry (the build fails)

template <>
struct Codec<bool> {
    static void put(std::string &out, bool v) { out += v ? "true" : "false"; }
    static bool get(Reader &r, bool &v) {
        if (eat_word(r, "true")) return v = true, true;
        if (eat_word(r, "false")) return v = false, true;
        if (r.lenient) {
            long double x;
            if (!get_any_number(r, x)) return false;
            v = x != 0;
            return true;
        }
        bool negative;
        unsigned long long m;
        if (!get_integer(r, negative, m) || (r.p < r.end && std::strchr(".eE", *r.p))) return false;
        v = m != 0;  // an integer for a bool, as C++ converts it
        return true;
    }
};

template <class T>
struct Codec<T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value>::type> {
    static void put(std::string &out, T v) {
        char buf[32];
        if (std::is_signed<T>::value)
            std::snprintf(buf, sizeof buf, "%lld", (long long)v);
        else
            std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
        out += buf;
    }
    static bool get(Reader &r, T &v) {
        if (r.lenient) {
            long double x;
            if (!get_any_number(r, x)) return false;
            v = x < 0 ? (T)(long long)x : (T)(unsigned long long)x;
            return true;
        }
        if (r.p < r.end && *r.p == '"') {  // a floating value only where it is exactly an integer of T
            long double x;
            if (!get_any_number(r, x) || x != x || x < (long double)std::numeric_limits<T>::min() ||
                x > (long double)std::numeric_limits<T>::max() || (long double)(T)x != x)
                return false;
            v = (T)x;
            return true;
        }
        bool negative;
        unsigned long long m;
        if (!get_integer(r, negative, m)) return false;
        if (r.p < r.end && std::strchr(".eE", *r.p)) return false;
        if (negative) {
            if (!std::is_signed<T>::value) return m == 0 ? (v = 0, true) : false;
            if (m > (unsigned long long)std::numeric_limits<T>::max() + 1ULL) return false;
            v = m == 0 ? (T)0 : (T)(-(long long)(m - 1) - 1);
            return true;
        }
        if (m > (unsigned long long)std::numeric_limits<T>::max()) return false;
        v = (T)m;
        return true;
    }
};

template <class T>
struct Codec<T, typename std::enable_if<std::is_floating_point<T>::value>::type> {
    static void put(std::string &out, T v) {
        char buf[64];
        if (std::is_same<T, long double>::value)
            std::snprintf(buf, sizeof buf, "%La", (long double)v);
        else
            std::snprintf(buf, sizeof buf, "%a", (double)v);
        out += '"';
        out += buf;
        out += '"';
    }
    static bool get(Reader &r, T &v) {
        if (r.lenient || r.p >= r.end || *r.p != '"') {
            long double x;
            if (r.p < r.end && *r.p != '"') {  // an integer for a floating type (as C++ converts it)
                const char *start = r.p;
                bool negative;
                unsigned long long m;
                if (!r.lenient && (!get_integer(r, negative, m) || (r.p < r.end && std::strchr(".eE", *r.p)))) return false;
                r.p = start;
            }
            if (!get_any_number(r, x)) return false;
            v = (T)x;
            return true;
        }
        std::string text;
        if (!get_string(r, text) || text.empty()) return false;
        char *stop = nullptr;
        long double wide = std::strtold(text.c_str(), &stop);
        v = (T)wide;
        // a double the candidate returned where the reference returns a float: the tests, compiled
        // with the candidate in one process, would compare the double (the judge says UNDECIDED)
        if (wide == wide && (long double)v != wide) r.inexact = true;
        return stop == text.c_str() + text.size();
    }
};

template <class Traits, class Alloc>
struct Codec<std::basic_string<char, Traits, Alloc>> {
    static void put(std::string &out, const std::basic_string<char, Traits, Alloc> &v) { put_string(out, v.data(), v.size()); }
    static bool get(Reader &r, std::basic_string<char, Traits, Alloc> &v) {
        std::string text;
        if (!get_string(r, text)) return false;
        v.assign(text.data(), text.size());
        return true;
    }
};

template <>
struct Codec<const char *> {
    static void put(std::string &out, const char *v) {
        if (v == nullptr)
            out += "null";
        else
            put_string(out, v, std::strlen(v));
    }
    static bool get(Reader &, const char *&) { return false; }
};

template <>
struct Codec<char *> {
    static void put(std::string &out, const char *v) { Codec<const char *>::put(out, v); }
    static bool get(Reader &, char *&) { return false; }
};

// ---- containers ----------------------------------------------------------------------------
template <class C, class E>
struct Sequence {
    static void put(std::string &out, const C &v) {
        out += '[';
        bool first = true;
        for (typename C::const_iterator it = v.begin(); it != v.end(); ++it) {
            if (!first) out += ',';
            first = false;
            const E &element = *it;
            Codec<E>::put(out, element);
        }
        out += ']';
    }
    template <class Add>
    static bool get_with(Reader &r, Add add) {
        if (!eat(r, '[')) return false;
        if (eat(r, ']')) return true;
        for (;;) {
            E element;
            if (!Codec<E>::get(r, element)) return false;
            add(element);
            if (eat(r, ']')) return true;
            if (!eat(r, ',')) return false;
        }
    }
};

template <class C>
struct Appended {
    static void put(std::string &out, const C &v) { Sequence<C, typename C::value_type>::put(out, v); }
    static bool get(Reader &r, C &v) {
        v.clear();
        return Sequence<C, typename C::value_type>::get_with(r, [&v](typename C::value_type &e) { v.push_back(std::move(e)); });
    }
};

template <class C>
struct Inserted {
    static void put(std::string &out, const C &v) { Sequence<C, typename C::value_type>::put(out, v); }
    static bool get(Reader &r, C &v) {
        v.clear();
        return Sequence<C, typename C::value_type>::get_with(r, [&v](typename C::value_type &e) { v.insert(std::move(e)); });
    }
};

template <class C>
struct Mapped {
    typedef std::pair<typename std::remove_const<typename C::key_type>::type, typename C::mapped_type> Entry;
    static void put(std::string &out, const C &v) {
        out += '[';
        bool first = true;
        for (typename C::const_iterator it = v.begin(); it != v.end(); ++it) {
            if (!first) out += ',';
            first = false;
            out += '[';
            Codec<typename std::remove_const<typename C::key_type>::type>::put(out, it->first);
            out += ',';
            Codec<typename C::mapped_type>::put(out, it->second);
            out += ']';
        }
        out += ']';
    }
    static bool get(Reader &r, C &v) {
        v.clear();
        return Sequence<std::vector<Entry>, Entry>::get_with(r, [&v](Entry &e) { v.insert(std::move(e)); });
    }
};

// Unordered containers are rebuilt from their elements in reverse iteration order by the range
// constructor, as the tests' own {a, b, c} built them: libstdc++ then iterates the copy in the
// original's order (a program whose result follows that order sees the same order as in the tests).
template <class C>
struct Rebuilt {
    static void put(std::string &out, const C &v) { Sequence<C, typename C::value_type>::put(out, v); }
    static bool get(Reader &r, C &v) {
        std::vector<typename C::value_type> items;
        if (!Sequence<C, typename C::value_type>::get_with(r, [&items](typename C::value_type &e) { items.push_back(std::move(e)); })) return false;
        v = C(items.rbegin(), items.rend());
        return true;
    }
};

template <class T, class A>
struct Codec<std::vector<T, A>> : Appended<std::vector<T, A>> {};
#ifdef _GLIBCXX_LIST
template <class T, class A>
struct Codec<std::list<T, A>> : Appended<std::list<T, A>> {};
#endif
#ifdef _GLIBCXX_DEQUE
template <class T, class A>
struct Codec<std::deque<T, A>> : Appended<std::deque<T, A>> {};
#endif
#ifdef _GLIBCXX_SET
template <class T, class L, class A>
struct Codec<std::set<T, L, A>> : Inserted<std::set<T, L, A>> {};
template <class T, class L, class A>
struct Codec<std::multiset<T, L, A>> : Inserted<std::multiset<T, L, A>> {};
#endif
#ifdef _GLIBCXX_UNORDERED_SET
template <class T, class H, class Q, class A>
struct Codec<std::unordered_set<T, H, Q, A>> : Rebuilt<std::unordered_set<T, H, Q, A>> {};
template <class T, class H, class Q, class A>
struct Codec<std::unordered_multiset<T, H, Q, A>> : Rebuilt<std::unordered_multiset<T, H, Q, A>> {};
#endif
#ifdef _GLIBCXX_MAP
template <class K, class V, class L, class A>
struct Codec<std::map<K, V, L, A>> : Mapped<std::map<K, V, L, A>> {};
template <class K, class V, class L, class A>
struct Codec<std::multimap<K, V, L, A>> : Mapped<std::multimap<K, V, L, A>> {};
#endif
#ifdef _GLIBCXX_UNORDERED_MAP
template <class K, class V, class H, class Q, class A>
struct Codec<std::unordered_map<K, V, H, Q, A>> : Mapped<std::unordered_map<K, V, H, Q, A>> {};
template <class K, class V, class H, class Q, class A>
struct Codec<std::unordered_multimap<K, V, H, Q, A>> : Mapped<std::unordered_multimap<K, V, H, Q, A>> {};
#endif

#ifdef _GLIBCXX_ARRAY
template <class T, size_t N>
struct Codec<std::array<T, N>> {
    static void put(std::string &out, const std::array<T, N> &v) { Sequence<std::array<T, N>, T>::put(out, v); }
    static bool get(Reader &r, std::array<T, N> &v) {
        size_t n = 0;
        bool ok = Sequence<std::array<T, N>, T>::get_with(r, [&v, &n](T &e) {
            if (n < N) v[n] = std::move(e);
            n++;
        });
        return ok && n == N;
    }
};

#endif

template <class A, class B>
struct Codec<std::pair<A, B>> {
    typedef typename std::remove_const<A>::type First;
    static void put(std::string &out, const std::pair<A, B> &v) {
        out += '[';
        Codec<First>::put(out, v.first);
        out += ',';
        Codec<B>::put(out, v.second);
        out += ']';
    }
    static bool get(Reader &r, std::pair<A, B> &v) {
        First first;
        if (!eat(r, '[') || !Codec<First>::get(r, first) || !eat(r, ',') || !Codec<B>::get(r, v.second) || !eat(r, ']')) return false;
        const_cast<First &>(v.first) = std::move(first);
        return true;
    }
};

#ifdef _GLIBCXX_TUPLE
template <size_t I, class Tuple>
struct TupleItems {
    typedef typename std::tuple_element<std::tuple_size<Tuple>::value - I, Tuple>::type Item;
    static void put(std::string &out, const Tuple &v) {
        if (std::tuple_size<Tuple>::value != I) out += ',';
        Codec<Item>::put(out, std::get<std::tuple_size<Tuple>::value - I>(v));
        TupleItems<I - 1, Tuple>::put(out, v);
    }
    static bool get(Reader &r, Tuple &v) {
        if (std::tuple_size<Tuple>::value != I && !eat(r, ',')) return false;
        return Codec<Item>::get(r, std::get<std::tuple_size<Tuple>::value - I>(v)) && TupleItems<I - 1, Tuple>::get(r, v);
    }
};
template <class Tuple>
struct TupleItems<0, Tuple> {
    static void put(std::string &, const Tuple &) {}
    static bool get(Reader &, Tuple &) { return true; }
};

template <class... T>
struct Codec<std::tuple<T...>> {
    static void put(std::string &out, const std::tuple<T...> &v) {
        out += '[';
        TupleItems<sizeof...(T), std::tuple<T...>>::put(out, v);
        out += ']';
    }
    static bool get(Reader &r, std::tuple<T...> &v) { return eat(r, '[') && TupleItems<sizeof...(T), std::tuple<T...>>::get(r, v) && eat(r, ']'); }
};
#endif

// ---- entry points --------------------------------------------------------------------------
template <class T>
void put(std::string &out, const T &v) {
    Codec<typename std::decay<T>::type>::put(out, v);
}

template <class T>
bool get(Reader &r, T &v) {
    return Codec<T>::get(r, v);
}

// ---- argument lists (the recorder's and the judge's calls line; the candidate's caller) -----
template <class... A>
struct Args;
template <>
struct Args<> {
    static void put(std::string &, bool) {}
};
template <class H, class... A>
struct Args<H, A...> {
    static void put(std::string &out, bool first, const H &h, const A &...rest) {
        if (!first) out += ',';
        execir_wire::put(out, h);
        Args<A...>::put(out, false, rest...);
    }
};
template <class... A>
std::string encode_args(const A &...a) {
    std::string out = "[";
    Args<A...>::put(out, true, a...);
    out += ']';
    return out;
}

// Index sequences (C++11 has none).
template <size_t... I>
struct Seq {};
template <size_t N, size_t... I>
struct MakeSeq : MakeSeq<N - 1, N - 1, I...> {};
template <size_t... I>
struct MakeSeq<0, I...> {
    typedef Seq<I...> type;
};

// Whether parameter type P lets the callee change the caller's variable (a non-const lvalue reference).
template <class P>
struct Mutable {
    static const bool value = std::is_lvalue_reference<P>::value && !std::is_const<typename std::remove_reference<P>::type>::value;
};

inline void write_all(int fd, const std::string &text);

}  // namespace execir_wire

// read(2), write(2) and _exit(2) declared here, not by <unistd.h>: it also declares variables (optopt,
// opterr, environ) that a program may define as its own globals, and this header follows it.
extern "C" long read(int, void *, __SIZE_TYPE__);
extern "C" long write(int, const void *, __SIZE_TYPE__);
extern "C" void _exit(int);

inline void execir_wire::write_all(int fd, const std::string &text) {
    const char *p = text.data();
    size_t left = text.size();
    while (left > 0) {
        long n = ::write(fd, p, left);
        if (n <= 0) return;
        p += n;
        left -= (size_t)n;
    }
}

#endif
