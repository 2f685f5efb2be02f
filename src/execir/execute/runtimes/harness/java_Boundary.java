package execir;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Values from the candidate, copied into JDK value classes before the tests compare them. */
public final class Boundary {
    private Boundary() {}

    public static int execirValue(int v) { return v; }
    public static long execirValue(long v) { return v; }
    public static double execirValue(double v) { return v; }
    public static float execirValue(float v) { return v; }
    public static boolean execirValue(boolean v) { return v; }
    public static char execirValue(char v) { return v; }
    public static short execirValue(short v) { return v; }
    public static byte execirValue(byte v) { return v; }

    @SuppressWarnings("unchecked")
    public static <T> T execirValue(T v) { return (T) copy(v, 0); }

    private static final Set<Class<?>> LEAVES = Set.of(String.class, Integer.class, Long.class, Double.class, Float.class,
            Short.class, Byte.class, Character.class, Boolean.class, BigInteger.class, BigDecimal.class,
            OptionalInt.class, OptionalLong.class, OptionalDouble.class);

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object copy(Object v, int depth) {
        if (v == null) return null;
        if (depth > 100) throw new AssertionError("execir: value nested too deeply");
        Class<?> c = v.getClass();
        if (LEAVES.contains(c)) return v;
        if (c.isEnum() && c.getClassLoader() == null) return v;
        if (c.isArray()) {
            int n = Array.getLength(v);
            Class<?> component = c.getComponentType();
            Object out = Array.newInstance(component, n);
            if (component.isPrimitive()) {
                System.arraycopy(v, 0, out, 0, n);
            } else {
                for (int i = 0; i < n; i++) {
                    try {
                        Array.set(out, i, copy(Array.get(v, i), depth + 1));
                    } catch (IllegalArgumentException e) {
                        throw new AssertionError("execir: array element of class " + Array.get(v, i).getClass().getName());
                    }
                }
            }
            return out;
        }
        if (c == Optional.class) {
            Optional<?> o = (Optional<?>) v;
            return o.isPresent() ? Optional.of(copy(o.get(), depth + 1)) : Optional.empty();
        }
        if (c == StringBuilder.class) return new StringBuilder(v.toString());
        if (v instanceof List) {
            List out = c == LinkedList.class ? new LinkedList() : new ArrayList();
            for (Object e : (List<?>) v) out.add(copy(e, depth + 1));
            return out;
        }
        if (v instanceof Set) {
            Set out = c == TreeSet.class && ((TreeSet<?>) v).comparator() == null ? new TreeSet() : new LinkedHashSet();
            for (Object e : (Set<?>) v) out.add(copy(e, depth + 1));
            return out;
        }
        if (v instanceof Map) {
            Map out = c == TreeMap.class && ((TreeMap<?, ?>) v).comparator() == null ? new TreeMap() : new LinkedHashMap();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) out.put(copy(e.getKey(), depth + 1), copy(e.getValue(), depth + 1));
            return out;
        }
        if (v instanceof Map.Entry) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) v;
            return new AbstractMap.SimpleImmutableEntry(copy(e.getKey(), depth + 1), copy(e.getValue(), depth + 1));
        }
        if (v instanceof Deque) {
            Deque out = new ArrayDeque();
            for (Object e : (Deque<?>) v) out.add(copy(e, depth + 1));
            return out;
        }
        if (v instanceof Collection) {
            List out = new ArrayList();
            for (Object e : (Collection<?>) v) out.add(copy(e, depth + 1));
            return out;
        }
        throw new AssertionError("execir: the candidate returned a value of class " + c.getName() + ", which the tests cannot compare safely");
    }
}
