package execir;

import java.lang.reflect.Array;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** The wire format of values between the runs of a split job: JSON of the Java library's value
 *  types, exact (integers keep their width, floating point values their bits, strings their UTF-16
 *  units). {@code null}, booleans, {@code Integer} (a bare number) and {@code String} are plain JSON;
 *  every other value is a one-tag object: {@code J S B C D F I M} (Long, Short, Byte, Character,
 *  Double, Float, BigInteger, BigDecimal, as text), {@code list}, {@code set}, {@code map}
 *  ({@code [[k, v], ...]}), {@code queue} (a priority queue in poll order), each with {@code order}
 *  ({@code natural}, {@code reverse}, {@code case-insensitive}, {@code custom}) when sorted, {@code opt}, {@code entry},
 *  {@code arr} with {@code v} (an array, by its JDK class name). Encoding is by the runtime value, so
 *  equal values built the same way encode byte for byte the same. Decoding is directed by a declared
 *  type and builds JDK classes only; a value that does not fit is a {@link Mismatch}. Strings are
 *  decoded interned, as the tests' literals are: HumanEval-X Java/137 compares the returned
 *  argument with a literal by identity ({@code (String) s.compareOne(1, "2,3").get() == "2,3"}). */
public final class Wire {
    private Wire() {}

    public static final int MAX_DEPTH = 200;
    public static final int MAX_CHARS = 8 << 20;

    /** A value that cannot be encoded, or wire text that does not fit the declared type. */
    public static final class Mismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;
        public Mismatch(String why) { super(why, null, false, false); }
    }

    // ---- encoding -----------------------------------------------------------------------------
    public static String encode(Object value) {
        StringBuilder out = new StringBuilder();
        encode(value, out, 0);
        return out.toString();
    }

    public static String encodeAll(Object[] values) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) out.append(',');
            encode(values[i], out, 0);
        }
        return out.append(']').toString();
    }

    private static void tag(StringBuilder out, String tag, String text) {
        out.append("{\"").append(tag).append("\":");
        Json.quote(text, out);
        out.append('}');
    }

    private static String order(Comparator<?> comparator) {
        if (comparator == null || comparator == Comparator.naturalOrder()) return "natural";
        if (comparator == String.CASE_INSENSITIVE_ORDER) return "case-insensitive";
        return comparator == Collections.reverseOrder() ? "reverse" : "custom";
    }

    private static void sequence(String tag, Iterable<?> items, String order, StringBuilder out, int depth) {
        out.append("{\"").append(tag).append("\":[");
        boolean first = true;
        for (Object item : items) {
            if (!first) out.append(',');
            first = false;
            encode(item, out, depth + 1);
        }
        out.append(']');
        if (order != null) out.append(",\"order\":\"").append(order).append('"');
        out.append('}');
    }

    /** {@code "u"}: an unmodifiable collection or map (List.of, Collections.unmodifiableList, a
     *  stream's toList, an empty or singleton one); {@code "f"}: a fixed-size list (Arrays.asList);
     *  null: an ordinary one. Sent as {@code "ro"}, so a change the tests (or the candidate) try
     *  throws on the other side as it would in one process. */
    private static String readOnly(Object v) {
        String name = v.getClass().getName();
        if (name.startsWith("java.util.ImmutableCollections$") || name.startsWith("java.util.Collections$Unmodifiable")
                || name.startsWith("java.util.Collections$Empty") || name.startsWith("java.util.Collections$Singleton")
                || name.equals("java.util.Collections$CopiesList")) return "u";
        return name.equals("java.util.Arrays$ArrayList") ? "f" : null;
    }

    /** The JDK classes a collection or map is rebuilt as when the declared type admits them (a
     *  HashMap declared, a LinkedHashMap returned: the tests' toString and iteration see its order). */
    private static final Set<String> KINDS = Set.of(
            "java.util.HashMap", "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.HashSet", "java.util.LinkedHashSet",
            "java.util.TreeSet", "java.util.ArrayList", "java.util.LinkedList", "java.util.ArrayDeque", "java.util.PriorityQueue",
            "java.util.Stack", "java.util.Vector");

    private static void markReadOnly(Object v, StringBuilder out, int start) {
        String ro = readOnly(v);
        String kind = v.getClass().getName();
        if (out.length() <= start || out.charAt(out.length() - 1) != '}') return;
        if (ro == null && !KINDS.contains(kind)) return;
        out.setLength(out.length() - 1);
        if (ro != null) out.append(",\"ro\":\"").append(ro).append('"');
        else out.append(",\"cls\":\"").append(kind).append('"');
        out.append('}');
    }

    /** The wire's JDK class of a collection or map where it is one of {@link #KINDS} that the
     *  declared class {@code c} admits, else {@code c}. */
    private static Class<?> kindOf(Object json, Class<?> c) {
        Object name = tagged(json).get("cls");
        if (!(name instanceof String) || !KINDS.contains(name)) return c;
        try {
            Class<?> found = Class.forName((String) name, false, null);
            return c.isAssignableFrom(found) ? found : c;
        } catch (ClassNotFoundException e) {
            return c;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void encode(Object v, StringBuilder out, int depth) {
        int start = out.length();
        encodeValue(v, out, depth);
        if (v instanceof Collection || v instanceof Map) markReadOnly(v, out, start);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void encodeValue(Object v, StringBuilder out, int depth) {
        if (depth > MAX_DEPTH) throw new Mismatch("value nested too deeply");
        if (out.length() > MAX_CHARS) throw new Mismatch("value too large");
        if (v == null) { out.append("null"); return; }
        if (v instanceof Boolean) { out.append(((Boolean) v).booleanValue()); return; }
        if (v instanceof Integer) { out.append(((Integer) v).intValue()); return; }
        if (v instanceof String) { Json.quote((String) v, out); return; }
        if (v instanceof Long) { tag(out, "J", Long.toString((Long) v)); return; }
        if (v instanceof Short) { tag(out, "S", Short.toString((Short) v)); return; }
        if (v instanceof Byte) { tag(out, "B", Byte.toString((Byte) v)); return; }
        if (v instanceof Character) { tag(out, "C", String.valueOf((char) (Character) v)); return; }
        if (v instanceof Double) { tag(out, "D", Double.toString((Double) v)); return; }
        if (v instanceof Float) { tag(out, "F", Float.toString((Float) v)); return; }
        if (v instanceof BigInteger) { tag(out, "I", v.toString()); return; }
        if (v instanceof BigDecimal) { tag(out, "M", v.toString()); return; }
        Class<?> c = v.getClass();
        if (c.isArray()) {
            int n = Array.getLength(v);
            List<Object> items = new ArrayList<>(n);
            for (int i = 0; i < n; i++) items.add(Array.get(v, i));
            out.append("{\"arr\":");
            Json.quote(c.getName(), out);
            out.append(",\"v\":[");
            for (int i = 0; i < n; i++) {
                if (i > 0) out.append(',');
                encode(items.get(i), out, depth + 1);
            }
            out.append("]}");
            return;
        }
        if (v instanceof Optional) {
            Optional<?> o = (Optional<?>) v;
            sequence("opt", o.isPresent() ? List.of(o.get()) : List.of(), null, out, depth);
            return;
        }
        if (v instanceof OptionalInt) { OptionalInt o = (OptionalInt) v; sequence("opt", o.isPresent() ? List.of(o.getAsInt()) : List.of(), null, out, depth); return; }
        if (v instanceof OptionalLong) { OptionalLong o = (OptionalLong) v; sequence("opt", o.isPresent() ? List.of(o.getAsLong()) : List.of(), null, out, depth); return; }
        if (v instanceof OptionalDouble) { OptionalDouble o = (OptionalDouble) v; sequence("opt", o.isPresent() ? List.of(o.getAsDouble()) : List.of(), null, out, depth); return; }
        if (v instanceof Map.Entry) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) v;
            List<Object> pair = new ArrayList<>();
            pair.add(e.getKey());
            pair.add(e.getValue());
            sequence("entry", pair, null, out, depth);
            return;
        }
        if (v instanceof Map) {
            List<Object> pairs = new ArrayList<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                List<Object> pair = new ArrayList<>(2);
                pair.add(e.getKey());
                pair.add(e.getValue());
                pairs.add(pair);
            }
            out.append("{\"map\":[");
            for (int i = 0; i < pairs.size(); i++) {
                if (i > 0) out.append(',');
                List<?> pair = (List<?>) pairs.get(i);
                out.append('[');
                encode(pair.get(0), out, depth + 2);
                out.append(',');
                encode(pair.get(1), out, depth + 2);
                out.append(']');
            }
            out.append(']');
            if (v instanceof SortedMap) out.append(",\"order\":\"").append(order(((SortedMap<?, ?>) v).comparator())).append('"');
            out.append('}');
            return;
        }
        if (v instanceof List) { sequence("list", new ArrayList<>((List<?>) v), null, out, depth); return; }
        if (v instanceof Set) {
            sequence("set", new ArrayList<>((Set<?>) v), v instanceof SortedSet ? order(((SortedSet<?>) v).comparator()) : null, out, depth);
            return;
        }
        if (v instanceof PriorityQueue) {
            PriorityQueue copy = new PriorityQueue((PriorityQueue) v);
            List<Object> polled = new ArrayList<>();
            while (!copy.isEmpty()) polled.add(copy.poll());
            sequence("queue", polled, order(((PriorityQueue<?>) v).comparator()), out, depth);
            return;
        }
        if (v instanceof Collection) { sequence("queue", new ArrayList<>((Collection<?>) v), null, out, depth); return; }
        throw new Mismatch("a value of class " + c.getName() + " has no wire form");
    }

    // ---- decoding -----------------------------------------------------------------------------
    public static Object decode(String text, Type type) {
        try {
            return decode(Json.parse(text), type, 0);
        } catch (IllegalArgumentException | ClassCastException | IndexOutOfBoundsException | ArithmeticException e) {
            throw new Mismatch(String.valueOf(e.getMessage()));
        }
    }

    private static Class<?> raw(Type t) {
        if (t instanceof Class) return (Class<?>) t;
        if (t instanceof ParameterizedType) return (Class<?>) ((ParameterizedType) t).getRawType();
        if (t instanceof GenericArrayType) return Array.newInstance(raw(((GenericArrayType) t).getGenericComponentType()), 0).getClass();
        if (t instanceof TypeVariable) {
            Type[] bounds = ((TypeVariable<?>) t).getBounds();
            return bounds.length > 0 ? raw(bounds[0]) : Object.class;
        }
        if (t instanceof WildcardType) {
            Type[] bounds = ((WildcardType) t).getUpperBounds();
            return bounds.length > 0 ? raw(bounds[0]) : Object.class;
        }
        return Object.class;
    }

    private static Type arg(Type t, int index) {
        if (t instanceof ParameterizedType) {
            Type[] args = ((ParameterizedType) t).getActualTypeArguments();
            if (index < args.length) return args[index];
        }
        return Object.class;
    }

    private static Map<String, Object> tagged(Object json) {
        if (!(json instanceof Map)) throw new Mismatch("expected a tagged value");
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) json;
        return m;
    }

    private static String tagOf(Object json) {
        if (!(json instanceof Map)) return null;
        Map<String, Object> m = tagged(json);
        return m.isEmpty() ? null : m.keySet().iterator().next();
    }

    private static List<?> items(Object json, String... tags) {
        Map<String, Object> m = tagged(json);
        for (String t : tags) {
            Object found = m.get(t);
            if (found instanceof List) return (List<?>) found;
        }
        throw new Mismatch("expected one of " + String.join("/", tags));
    }

    private static String text(Object json, String tag) {
        Map<String, Object> m = tagged(json);
        Object found = m.get(tag);
        if (m.size() != 1 || !(found instanceof String)) throw new Mismatch("expected a " + tag + " value");
        return (String) found;
    }

    /** The JSON tree decoded by its tags alone (a declared type of Object, Number, Comparable...). */
    private static Object natural(Object json, int depth) {
        if (json == Json.NULL) return null;
        if (json instanceof Boolean) return json;
        if (json instanceof String) return ((String) json).intern();
        if (json instanceof Json.Num) return Integer.valueOf(((Json.Num) json).text);
        String tag = tagOf(json);
        if (tag == null) throw new Mismatch("untagged value");
        switch (tag) {
            case "J": return Long.valueOf(text(json, tag));
            case "S": return Short.valueOf(text(json, tag));
            case "B": return Byte.valueOf(text(json, tag));
            case "C": return character(text(json, tag));
            case "D": return Double.valueOf(text(json, tag));
            case "F": return Float.valueOf(text(json, tag));
            case "I": return new BigInteger(text(json, tag));
            case "M": return new BigDecimal(text(json, tag));
            case "list": return decode(json, ArrayList.class, depth);
            case "set": return decode(json, sortedOrder(json) != null ? TreeSet.class : LinkedHashSet.class, depth);
            case "map": return decode(json, sortedOrder(json) != null ? TreeMap.class : LinkedHashMap.class, depth);
            case "queue": return decode(json, sortedOrder(json) != null ? PriorityQueue.class : ArrayDeque.class, depth);
            case "opt": return decode(json, Optional.class, depth);
            case "entry": return decode(json, Map.Entry.class, depth);
            case "arr": return array(json, Object.class, depth);
            default: throw new Mismatch("unknown tag " + tag);
        }
    }

    private static Character character(String s) {
        if (s.length() != 1) throw new Mismatch("a char is one UTF-16 unit");
        return s.charAt(0);
    }

    private static String sortedOrder(Object json) {
        Object found = tagged(json).get("order");
        return found instanceof String ? (String) found : null;
    }

    /** Integral or floating values of a primitive target, converted only when exact (the tests'
     *  {@code ==} compares them by value whatever width or kind the program declared: a program
     *  declaring {@code long} or {@code double} where the reference says {@code int} passes
     *  {@code s.f(x) == 5} in the tests' own build too). */
    private static Object primitive(Object json, Class<?> c) {
        Object v = natural(json, 0);
        if (c == boolean.class) { if (v instanceof Boolean) return v; throw new Mismatch("expected a boolean"); }
        if (c == char.class) { if (v instanceof Character) return v; throw new Mismatch("expected a char"); }
        if (c == double.class || c == float.class) {
            if (!(v instanceof Number) || v instanceof BigInteger || v instanceof BigDecimal) throw new Mismatch("expected a number");
            Number n = (Number) v;
            double d = n.doubleValue();
            boolean integral = v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte;
            if (integral && (long) d != n.longValue()) throw new Mismatch("not exact as a double");
            if (c == double.class) return d;
            float f = (float) d;
            if (!Double.isNaN(d) && (double) f != d) throw new Mismatch("not exact as a float");
            return f;
        }
        if ((v instanceof Double || v instanceof Float) && ((Number) v).doubleValue() == Math.rint(((Number) v).doubleValue())
                && Math.abs(((Number) v).doubleValue()) < 0x1p62) {
            v = ((Number) v).longValue();
        }
        if (!(v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte)) throw new Mismatch("expected an integer");
        long n = ((Number) v).longValue();
        if (c == long.class) return n;
        if (c == int.class && n == (int) n) return (int) n;
        if (c == short.class && n == (short) n) return (short) n;
        if (c == byte.class && n == (byte) n) return (byte) n;
        throw new Mismatch("integer out of range");
    }

    private static final Map<Class<?>, Class<?>> BOXES = Map.of(Boolean.class, Boolean.class, Integer.class, Integer.class, Long.class, Long.class,
            Short.class, Short.class, Byte.class, Byte.class, Character.class, Character.class, Double.class, Double.class, Float.class, Float.class,
            BigInteger.class, BigInteger.class, BigDecimal.class, BigDecimal.class);

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Object decode(Object json, Type type, int depth) {
        if (depth > MAX_DEPTH) throw new Mismatch("value nested too deeply");
        Class<?> c = raw(type);
        if (c.isPrimitive()) {
            if (json == Json.NULL) throw new Mismatch("null for a primitive");
            return primitive(json, c);
        }
        if (json == Json.NULL) return null;
        if (BOXES.containsKey(c) || c == String.class) {
            Object v = natural(json, depth);
            if (v.getClass() != c) throw new Mismatch("expected " + c.getSimpleName() + ", got " + v.getClass().getSimpleName());
            return v;
        }
        if (c.isArray()) return array(json, c, depth);
        if (c == Optional.class) {
            List<?> items = items(json, "opt");
            return items.isEmpty() ? Optional.empty() : Optional.of(decode(items.get(0), arg(type, 0), depth + 1));
        }
        if (c == OptionalInt.class || c == OptionalLong.class || c == OptionalDouble.class) {
            List<?> items = items(json, "opt");
            if (items.isEmpty()) return c == OptionalInt.class ? OptionalInt.empty() : c == OptionalLong.class ? OptionalLong.empty() : OptionalDouble.empty();
            if (c == OptionalInt.class) return OptionalInt.of((Integer) decode(items.get(0), Integer.class, depth + 1));
            if (c == OptionalLong.class) return OptionalLong.of((Long) decode(items.get(0), Long.class, depth + 1));
            return OptionalDouble.of((Double) decode(items.get(0), Double.class, depth + 1));
        }
        if (c == Map.Entry.class || c == AbstractMap.SimpleEntry.class || c == AbstractMap.SimpleImmutableEntry.class) {
            List<?> pair = items(json, "entry");
            if (pair.size() != 2) throw new Mismatch("an entry is a pair");
            Object k = decode(pair.get(0), arg(type, 0), depth + 1), v = decode(pair.get(1), arg(type, 1), depth + 1);
            return c == AbstractMap.SimpleImmutableEntry.class ? new AbstractMap.SimpleImmutableEntry(k, v) : new AbstractMap.SimpleEntry(k, v);
        }
        if (Map.class.isAssignableFrom(c)) {
            List<?> pairs = items(json, "map");
            List<Object> keys = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            for (Object p : pairs) {
                if (!(p instanceof List) || ((List<?>) p).size() != 2) throw new Mismatch("a map entry is a pair");
                keys.add(decode(((List<?>) p).get(0), arg(type, 0), depth + 2));
                values.add(decode(((List<?>) p).get(1), arg(type, 1), depth + 2));
            }
            Map out = (Map) container(kindOf(json, c), LinkedHashMap.class, sortedOrder(json), keys, SortedMap.class);
            for (int i = 0; i < keys.size(); i++) out.put(keys.get(i), values.get(i));
            return asReadOnly(json, c, out);
        }
        if (Collection.class.isAssignableFrom(c) || c == Iterable.class) {
            String tag = tagOf(json);
            boolean list = List.class.isAssignableFrom(c), set = Set.class.isAssignableFrom(c);
            boolean queue = !list && !set && Queue.class.isAssignableFrom(c);
            if ((list && !"list".equals(tag)) || (set && !"set".equals(tag)) || (queue && !"queue".equals(tag) && !"list".equals(tag))) {
                throw new Mismatch("expected a " + c.getSimpleName() + ", got " + tag);
            }
            List<Object> elements = new ArrayList<>();
            for (Object item : items(json, "list", "set", "queue")) elements.add(decode(item, arg(type, 0), depth + 1));
            Class<?> fallback = list ? ArrayList.class : set ? ("set".equals(tag) && sortedOrder(json) != null ? TreeSet.class : LinkedHashSet.class)
                    : queue ? (sortedOrder(json) != null ? PriorityQueue.class : elements.contains(null) ? LinkedList.class : ArrayDeque.class)
                    : "set".equals(tag) ? LinkedHashSet.class : ArrayList.class;
            Collection out = (Collection) container(kindOf(json, c), fallback, sortedOrder(json), elements, null);
            out.addAll(elements);
            return asReadOnly(json, c, out);
        }
        Object v = natural(json, depth);
        if (!c.isInstance(v)) throw new Mismatch("expected " + c.getName() + ", got " + v.getClass().getName());
        return v;
    }

    /** {@code out} as unmodifiable or fixed-size as the wire's {@code "ro"} says, where the
     *  declared class {@code c} admits the JDK's view (an interface; a concrete class cannot be). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object asReadOnly(Object json, Class<?> c, Object out) {
        Object ro = tagged(json).get("ro");
        if (ro == null) return out;
        Object view = null;
        if ("f".equals(ro) && out instanceof List) view = Arrays.asList(((List) out).toArray());
        else if (!"u".equals(ro)) throw new Mismatch("not a read-only kind");
        else if (out instanceof NavigableMap) view = Collections.unmodifiableNavigableMap((NavigableMap) out);
        else if (out instanceof SortedMap) view = Collections.unmodifiableSortedMap((SortedMap) out);
        else if (out instanceof Map) view = Collections.unmodifiableMap((Map) out);
        else if (out instanceof List) view = Collections.unmodifiableList((List) out);
        else if (out instanceof NavigableSet) view = Collections.unmodifiableNavigableSet((NavigableSet) out);
        else if (out instanceof SortedSet) view = Collections.unmodifiableSortedSet((SortedSet) out);
        else if (out instanceof Set) view = Collections.unmodifiableSet((Set) out);
        else if (out instanceof Collection) view = Collections.unmodifiableCollection((Collection) out);
        return view != null && c.isInstance(view) ? view : out;
    }

    private static Object array(Object json, Class<?> target, int depth) {
        Map<String, Object> m = tagged(json);
        Object name = m.get("arr");
        Object values = m.get("v");
        if (m.size() != 2 || !(name instanceof String) || !(values instanceof List)) throw new Mismatch("expected an array");
        Class<?> c;
        try {
            c = Class.forName((String) name, false, null);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new Mismatch("not a JDK array class: " + name);
        }
        if (!c.isArray() || !target.isAssignableFrom(c) || (target.isArray() && target.getComponentType().isPrimitive() != c.getComponentType().isPrimitive())) {
            throw new Mismatch("expected " + target.getName() + ", got " + name);
        }
        List<?> items = (List<?>) values;
        Object out = Array.newInstance(c.getComponentType(), items.size());
        for (int i = 0; i < items.size(); i++) Array.set(out, i, decode(items.get(i), c.getComponentType(), depth + 1));
        return out;
    }

    /** An empty container of the declared class {@code c} (its JDK class when concrete, else
     *  {@code fallback}); a sorted one keeps the source's order (natural, reverse, or the wire's). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object container(Class<?> c, Class<?> fallback, String order, List<Object> keys, Class<?> sortedMapKind) {
        Class<?> make = c;
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            boolean sorted = SortedSet.class.isAssignableFrom(c) || SortedMap.class.isAssignableFrom(c);
            if (sortedMapKind != null && sorted) make = TreeMap.class;
            else if (sorted) make = TreeSet.class;
            else if (c.isAssignableFrom(fallback)) make = fallback;
            else if (Deque.class.isAssignableFrom(c)) make = keys.contains(null) ? LinkedList.class : ArrayDeque.class;
            else throw new Mismatch("no JDK class for " + c.getName());
        }
        if (make.getClassLoader() != null) throw new Mismatch("not a JDK class: " + make.getName());
        Comparator comparator = null;
        boolean sorted = SortedSet.class.isAssignableFrom(make) || SortedMap.class.isAssignableFrom(make) || PriorityQueue.class.isAssignableFrom(make);
        if (sorted) {
            if ("reverse".equals(order)) comparator = Collections.reverseOrder();
            else if ("case-insensitive".equals(order)) comparator = String.CASE_INSENSITIVE_ORDER;
            else if ("custom".equals(order)) comparator = new Rank(keys);
            else if (!"natural".equals(order) && order != null) throw new Mismatch("unknown order " + order);
        }
        try {
            if (comparator != null) return make.getConstructor(Comparator.class).newInstance(comparator);
            return make.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new Mismatch("cannot build " + make.getName());
        }
    }

    /** The order of a sorted value whose comparator was the program's own: each element's place in
     *  the wire's sequence (elements not in it come after, in natural order where there is one). */
    static final class Rank implements Comparator<Object> {
        private final Map<Object, Integer> rank = new HashMap<>();

        Rank(List<Object> order) {
            for (Object o : order) rank.putIfAbsent(o, rank.size());
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public int compare(Object a, Object b) {
            Integer x = rank.get(a), y = rank.get(b);
            if (x != null && y != null) return Integer.compare(x, y);
            if (x != null) return -1;
            if (y != null) return 1;
            if (a instanceof Comparable && b != null && a.getClass() == b.getClass()) return ((Comparable) a).compareTo(b);
            return a == null ? (b == null ? 0 : -1) : b == null ? 1 : Integer.compare(System.identityHashCode(a), System.identityHashCode(b));
        }
    }
}
