"""Agreement probes for JavaScript, C++, Go, Java and Ruby candidates (pure: text in, text out);
Rust's probe program is written beside its checks (:func:`execir.rerank.execution.rust_calls.rust_probe_program`).

The Python ``exec`` reranker splits the candidates that pass a query's examples by how they behave
on *probe* inputs (:mod:`execir.rerank.execution.probes`). This module writes the same probes for the native
languages: each probe call (the query's example call with one argument edited, as Python's) is
written with the language's literal writer (:mod:`execir.rerank.execution.native_calls`; Go and Java typed
by the candidate's own signature, :mod:`execir.rerank.execution.typed_calls`), run in the candidate's
process, and its result reduced to a canonical text printed on one stdout line that starts with
:data:`execir.execute.decide.PROBE_MARK` and the probe's index (an exception the language can catch
prints ``raised`` and its class). The oracle runs the program as native tests (``probe`` suite:
completion proved by the nonce) and reduces each marked line to 16 digest bits on the host
(:func:`execir.execute.decide.decide_probe`); the candidate's own output, without the mark, is
ignored, so an ordinary program that prints is not told apart by it.

Canonical texts, per language (only candidates of one language are ever compared): integers
exactly, floats to 6 significant digits (``-0.0`` as ``0.0``; a ``float`` and a ``double`` of the
same number agree), strings quoted (a Go ``rune``, Java ``char`` and C++ ``char`` as a one-letter
string), sequences in order (a Go nil slice as an empty one), sets and map entries sorted by their
text, Java's ``Optional`` as its content, several Go results as a list; a type read here does
not know is its kind only (every candidate returning it agrees).

What the values cannot prove: the text is computed in the candidate's process, so a program written
against this reranker could print another candidate's lines. It could only join a group by
printing the values that group computes; probes order candidates that already pass every
example and never make a label.

C++ probes never make a container or string argument empty (a correct program often indexes its
first element, which is undefined behaviour C++ cannot catch; the other languages raise, and a
raise is a value here).
"""

from __future__ import annotations

import ast
import json
from dataclasses import replace

from execir.execute.decide import PROBE_MARK
from execir.language_declarations import having
from execir.rerank.execution.examples import CallExample, Examples
from execir.rerank.execution.native_calls import Unwritable
from execir.rerank.execution.probes import PROBES, probe_arguments
from execir.rerank.execution.typed_calls import signature
from execir.rerank.execution.typed_values import Signature
from execir.types import TestSuite

PROBE_LANGUAGES = having("probes")
"""Native languages the ``exec`` reranker probes."""


def native_probe_arguments(examples: Examples, language: str) -> tuple[str, ...]:
    """The probe argument lists (Python source) for ``language``'s candidates of a query."""
    from execir.rerank.execution.writers import writer_of

    writer = writer_of(language)
    if writer is not None and writer.probe_arguments is not None:
        return writer.probe_arguments(examples)
    return probe_arguments(examples, PROBES)


def cpp_probe_arguments(examples: Examples) -> tuple[str, ...]:
    """C++'s probe arguments: brace lists read as lists (order and duplicates kept), never an empty
    container or string (see the module's note)."""
    ordered = replace(examples, calls=tuple(replace(call, call=_sets_as_lists(call.call)) for call in examples.calls))
    kept = [args for args in probe_arguments(ordered, 4 * PROBES) if not _has_empty(args)]
    return tuple(kept[:PROBES])


class _SetsAsLists(ast.NodeTransformer):
    def visit_Set(self, node: ast.Set) -> ast.AST:
        return ast.copy_location(ast.List(elts=[self.visit(element) for element in node.elts], ctx=ast.Load()), node)


def _sets_as_lists(call: str) -> str:
    """A C++ call's brace lists, read as Python sets, as lists: C++'s ``{3, 1, 1}`` is a vector
    (order and duplicates kept), and a list is what probes edit."""
    try:
        tree = ast.parse(call, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return call
    return ast.unparse(ast.fix_missing_locations(_SetsAsLists().visit(tree)))


def native_probe_suite(examples: Examples, language: str, program: str, arguments: tuple[str, ...]) -> TestSuite | None:
    """The ``probe`` suite of ``arguments`` for one candidate (``asserts`` lists the probe calls as
    written), or None when its language has no probes here, the candidate declares no signature
    this can read (Go, Java) or no probe can be written for it."""
    from execir.rerank.execution.writers import writer_of

    writer = writer_of(language)
    if language not in PROBE_LANGUAGES or writer is None or not arguments or not examples.calls:
        return None
    entry = examples.entry_point
    declared = signature(program, language, entry) if writer.signature is not None else None
    if writer.signature is not None and declared is None:
        return None
    calls: list[str] = []
    for args in arguments:
        example = CallExample(entry, f"{entry}({args})", "None")
        try:
            calls.append(writer.call(example, declared))
        except Unwritable:
            continue
    if not calls:
        return None
    code = writer.probes(calls, declared)
    return TestSuite(kind="probe", code=code, asserts=tuple(calls))


def _has_empty(arguments: str) -> bool:
    try:
        tree = ast.parse(f"f({arguments})", mode="eval").body
    except (SyntaxError, MemoryError, RecursionError):
        return True
    assert isinstance(tree, ast.Call)
    for node in tree.args:
        try:
            value = ast.literal_eval(node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return True
        if isinstance(value, (str, list, tuple, dict, set)) and len(value) == 0:
            return True
    return False


_MARK = json.dumps(PROBE_MARK + " ")

# ---- JavaScript ------------------------------------------------------------------------------------

JS_KEY = """const execirProbeKey = (v) => {
    if (v === null) return "null";
    if (v === undefined) return "undefined";
    const t = typeof v;
    if (t === "number") return Number.isNaN(v) ? "n:NaN" : "n:" + (Number.isInteger(v) ? String(v + 0) : String(Number(v.toPrecision(6)) + 0));
    if (t === "bigint") return "n:" + String(v);
    if (t === "string") return "s:" + JSON.stringify(v);
    if (t === "boolean") return "b:" + String(v);
    if (Array.isArray(v)) return "[" + v.map(execirProbeKey).join(",") + "]";
    if (v instanceof Set) return "set{" + [...v].map(execirProbeKey).sort().join(",") + "}";
    if (v instanceof Map) return "map{" + [...v].map(([k, x]) => execirProbeKey(k) + ":" + execirProbeKey(x)).sort().join(",") + "}";
    if (t === "object") return "obj{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + execirProbeKey(v[k])).join(",") + "}";
    return t;
  };
  const execirProbeWrite = process.stdout.write.bind(process.stdout);
  const execirProbe = (index, thunk) => {
    let key;
    try {
      key = execirProbeKey(thunk());
    } catch (e) {
      key = "raised:" + (e !== null && typeof e === "object" && typeof e.name === "string" ? e.name : typeof e);
    }
    execirProbeWrite(MARK + index + " " + key.split("\\n").join("\\\\n") + "\\n");
  };
"""


def js_probe_program(calls: list[str], _: Signature | None) -> str:
    body = "".join(f"  execirProbe({index}, () => {call});\n" for index, call in enumerate(calls))
    return "(() => {\n  " + JS_KEY.replace("MARK", _MARK) + body + "})();\n"


# ---- C++ -------------------------------------------------------------------------------------------

CPP_KEY = """#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
namespace execir_probe {
inline std::string quote(const std::string &s) {
  std::string out = "\\"";
  for (char c : s) {
    if (c == '"' || c == '\\\\') { out += '\\\\'; out += c; }
    else if (c == '\\n') out += "\\\\n";
    else out += c;
  }
  return out + "\\"";
}
inline std::string key(const std::string &v);
inline std::string key(const char *v);
inline std::string key(bool v);
inline std::string key(char v);
template <class T> typename std::enable_if<std::is_integral<T>::value, std::string>::type key(const T &v);
template <class T> typename std::enable_if<std::is_floating_point<T>::value, std::string>::type key(const T &v);
template <class T, class A> std::string key(const std::vector<T, A> &v);
template <class A, class B> std::string key(const std::pair<A, B> &v);
template <class K, class V, class C, class A> std::string key(const std::map<K, V, C, A> &v);
template <class T, class C, class A> std::string key(const std::set<T, C, A> &v);
template <class T> typename std::enable_if<!std::is_arithmetic<T>::value, std::string>::type key(const T &);

inline std::string key(const std::string &v) { return "s:" + quote(v); }
inline std::string key(const char *v) { return v ? "s:" + quote(v) : std::string("null"); }
inline std::string key(bool v) { return v ? "b:true" : "b:false"; }
inline std::string key(char v) { return "s:" + quote(std::string(1, v)); }
template <class T> typename std::enable_if<std::is_integral<T>::value, std::string>::type key(const T &v) {
  return std::is_signed<T>::value ? "i:" + std::to_string(static_cast<long long>(v)) : "i:" + std::to_string(static_cast<unsigned long long>(v));
}
template <class T> typename std::enable_if<std::is_floating_point<T>::value, std::string>::type key(const T &v) {
  double d = static_cast<double>(v);
  if (std::isnan(d)) return "f:nan";
  if (d == 0) d = 0;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.6g", d);
  return std::string("f:") + buffer;
}
template <class T, class A> std::string key(const std::vector<T, A> &v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + key(static_cast<T>(v[i]));
  return out + "]";
}
template <class A, class B> std::string key(const std::pair<A, B> &v) { return "(" + key(v.first) + "," + key(v.second) + ")"; }
template <class K, class V, class C, class A> std::string key(const std::map<K, V, C, A> &v) {
  std::set<std::string> items;
  for (const auto &item : v) items.insert(key(item.first) + ":" + key(item.second));
  std::string out = "map{";
  for (const auto &item : items) out += item + ",";
  return out + "}";
}
template <class T, class C, class A> std::string key(const std::set<T, C, A> &v) {
  std::set<std::string> items;
  for (const auto &item : v) items.insert(key(item));
  std::string out = "set{";
  for (const auto &item : items) out += item + ",";
  return out + "}";
}
template <class T> typename std::enable_if<!std::is_arithmetic<T>::value, std::string>::type key(const T &) { return "?"; }
template <class F> void probe(int index, F thunk) {
  std::string text;
  try {
    text = thunk();
  } catch (...) {
    text = "raised";
  }
  std::string line = MARK + std::to_string(index) + " " + text + "\\n";
  std::fwrite(line.data(), 1, line.size(), stdout);
}
}  // namespace execir_probe
"""


def cpp_probe_program(calls: list[str], _: Signature | None) -> str:
    body = "".join(f"  execir_probe::probe({index}, [&]() {{ return execir_probe::key({call}); }});\n" for index, call in enumerate(calls))
    return CPP_KEY.replace("MARK", "std::string(" + _MARK + ")") + "int main() {\n" + body + "  std::fflush(stdout);\n  return 0;\n}\n"


# ---- Go --------------------------------------------------------------------------------------------

GO_KEY = """func execirProbeKey(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Invalid:
		return "nil"
	case reflect.Bool:
		return "b:" + strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "i:" + strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "i:" + strconv.FormatUint(v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if math.IsNaN(f) {
			return "f:nan"
		}
		if f == 0 {
			f = 0
		}
		return "f:" + strconv.FormatFloat(f, 'g', 6, 64)
	case reflect.String:
		return "s:" + strconv.Quote(v.String())
	case reflect.Slice, reflect.Array:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = execirProbeKey(v.Index(i))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case reflect.Map:
		parts := make([]string, 0, v.Len())
		iter := v.MapRange()
		for iter.Next() {
			parts = append(parts, execirProbeKey(iter.Key())+":"+execirProbeKey(iter.Value()))
		}
		sort.Strings(parts)
		return "map{" + strings.Join(parts, ",") + "}"
	case reflect.Ptr, reflect.Interface:
		if v.IsNil() {
			return "nil"
		}
		return execirProbeKey(v.Elem())
	case reflect.Struct:
		parts := make([]string, v.NumField())
		for i := range parts {
			parts[i] = execirProbeKey(v.Field(i))
		}
		return "struct{" + strings.Join(parts, ",") + "}"
	}
	return v.Kind().String()
}

func execirProbeValues(values ...interface{}) []interface{} { return values }

func execirProbe(index int, thunk func() []interface{}) {
	key := func() (key string) {
		defer func() {
			if recover() != nil {
				key = "raised"
			}
		}()
		values := thunk()
		parts := make([]string, len(values))
		for i, value := range values {
			parts[i] = execirProbeKey(reflect.ValueOf(value))
		}
		return strings.Join(parts, ";")
	}()
	os.Stdout.WriteString(MARK + strconv.Itoa(index) + " " + strings.ReplaceAll(key, "\\n", "\\\\n") + "\\n")
}
"""


def go_probe_program(calls: list[str], declared: Signature | None) -> str:
    assert declared is not None
    body = "".join(f"\texecirProbe({index}, func() []interface{{}} {{ return execirProbeValues({call}) }})\n" for index, call in enumerate(calls))
    imports = "".join(f'\t"{name}"\n' for name in ("math", "os", "reflect", "sort", "strconv", "strings", "testing"))
    return f"package {declared.package}\n\nimport (\n{imports})\n\n" + GO_KEY.replace("MARK", _MARK) + f"\nfunc TestExecirProbes(t *testing.T) {{\n{body}}}\n"


# ---- Java ------------------------------------------------------------------------------------------

JAVA_KEY = """    static String execirQuote(String s) {
        return "\\"" + s.replace("\\\\", "\\\\\\\\").replace("\\"", "\\\\\\"").replace("\\n", "\\\\n") + "\\"";
    }

    static String execirProbeKey(Object v) {
        if (v instanceof java.util.Optional) v = ((java.util.Optional<?>) v).orElse(null);
        if (v instanceof java.util.OptionalInt) {
            java.util.OptionalInt o = (java.util.OptionalInt) v;
            v = o.isPresent() ? (Object) o.getAsInt() : null;
        }
        if (v instanceof java.util.OptionalLong) {
            java.util.OptionalLong o = (java.util.OptionalLong) v;
            v = o.isPresent() ? (Object) o.getAsLong() : null;
        }
        if (v instanceof java.util.OptionalDouble) {
            java.util.OptionalDouble o = (java.util.OptionalDouble) v;
            v = o.isPresent() ? (Object) o.getAsDouble() : null;
        }
        if (v == null) return "null";
        if (v instanceof Boolean) return "b:" + v;
        if (v instanceof Character) return "s:" + execirQuote(String.valueOf(v));
        if (v instanceof CharSequence) return "s:" + execirQuote(v.toString());
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte || v instanceof java.math.BigInteger) return "i:" + v;
        if (v instanceof Double || v instanceof Float || v instanceof java.math.BigDecimal) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) return "f:nan";
            if (d == 0) d = 0.0;
            return "f:" + String.format(java.util.Locale.ROOT, "%.5e", d);
        }
        java.util.List<String> parts = new java.util.ArrayList<>();
        if (v instanceof java.util.Map) {
            for (java.util.Map.Entry<?, ?> e : ((java.util.Map<?, ?>) v).entrySet()) parts.add(execirProbeKey(e.getKey()) + ":" + execirProbeKey(e.getValue()));
            java.util.Collections.sort(parts);
            return "map{" + String.join(",", parts) + "}";
        }
        if (v instanceof java.util.Set) {
            for (Object item : (java.util.Set<?>) v) parts.add(execirProbeKey(item));
            java.util.Collections.sort(parts);
            return "set{" + String.join(",", parts) + "}";
        }
        if (v instanceof java.util.Collection) {
            for (Object item : (java.util.Collection<?>) v) parts.add(execirProbeKey(item));
            return "[" + String.join(",", parts) + "]";
        }
        if (v.getClass().isArray()) {
            for (int i = 0; i < java.lang.reflect.Array.getLength(v); i++) parts.add(execirProbeKey(java.lang.reflect.Array.get(v, i)));
            return "[" + String.join(",", parts) + "]";
        }
        return "o:" + v.getClass().getName();
    }

    static void execirProbe(int index, java.util.concurrent.Callable<Object> thunk) {
        String key;
        try {
            key = execirProbeKey(thunk.call());
        } catch (Throwable e) {
            key = "raised:" + e.getClass().getName();
        }
        System.out.print(MARK + index + " " + key.replace("\\n", "\\\\n") + "\\n");
    }
"""


def java_probe_program(calls: list[str], _: Signature | None) -> str:
    body = "".join(f"        execirProbe({index}, () -> {call});\n" for index, call in enumerate(calls))
    main = "    public static void main(String[] args) throws Exception {\n        Solution s = new Solution();\n"
    return f"public class Main {{\n{JAVA_KEY.replace('MARK', _MARK)}\n{main}{body}        System.out.flush();\n    }}\n}}\n"


# ---- Ruby ------------------------------------------------------------------------------------------

RUBY_KEY = """STDOUT.sync = true
execir_probe_class = Kernel.instance_method(:class)
execir_probe_key = nil
execir_probe_key = lambda do |v|
  kind = execir_probe_class.bind_call(v)
  if kind == Integer
    "i:" + Integer.instance_method(:to_s).bind_call(v)
  elsif kind == Float
    v.nan? ? "f:nan" : "f:" + format("%.6g", v == 0 ? 0.0 : v)
  elsif kind == String
    "s:" + String.instance_method(:inspect).bind_call(v)
  elsif kind == Symbol
    "sym:" + Symbol.instance_method(:to_s).bind_call(v)
  elsif kind == NilClass || kind == TrueClass || kind == FalseClass
    "v:" + v.inspect
  elsif kind == Array
    "[" + Array.instance_method(:map).bind_call(v) { |x| execir_probe_key.call(x) }.join(",") + "]"
  elsif kind == Hash
    "map{" + Hash.instance_method(:map).bind_call(v) { |k, x| execir_probe_key.call(k) + ":" + execir_probe_key.call(x) }.sort.join(",") + "}"
  else
    "o:" + Module.instance_method(:name).bind_call(kind).to_s
  end
end
execir_probe = lambda do |index, thunk|
  key = begin
    execir_probe_key.call(thunk.call)
  rescue StandardError, SystemStackError => e
    "raised:" + Module.instance_method(:name).bind_call(execir_probe_class.bind_call(e)).to_s
  end
  STDOUT.write(MARK + index.to_s + " " + key.gsub("\\n") { "\\\\n" } + "\\n")
end
"""


def ruby_probe_program(calls: list[str], _: Signature | None) -> str:
    body = "".join(f"execir_probe.call({index}, -> {{ {call} }})\n" for index, call in enumerate(calls))
    return RUBY_KEY.replace("MARK", _MARK) + body
