package execir;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.Stack;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Vector;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;

/** Values from the candidate, copied into JDK value classes before the tests compare them; and the
 *  guard that keeps candidate code from running the tests itself. */
public final class Boundary {
    private Boundary() {}

    /** The candidate's source file: every frame of candidate code compiled by javac names it. */
    private static final String CANDIDATE_FILE = "Solution.java";

    private static final StackWalker WALKER = StackWalker.getInstance(
            Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_REFLECT_FRAMES, StackWalker.Option.SHOW_HIDDEN_FRAMES));

    /** Halts the JVM with a failure status (no catch, hook or finally block of the candidate runs)
     *  unless the caller runs on the runner's thread with no candidate frame below it: the tests
     *  entered (or calling the candidate) from candidate code or from a thread the candidate started
     *  is a FAIL, so the candidate cannot run the tests to search for the expected answers. */
    private static void guard(String what) {
        String bad = WALKER.walk(frames -> {
            StackWalker.StackFrame[] last = {null};
            String found = frames.map(f -> {
                last[0] = f;
                return CANDIDATE_FILE.equals(f.getFileName()) ? f.toString() : null;
            }).filter(s -> s != null).findFirst().orElse(null);
            if (found != null) return "candidate code (" + found + ")";
            StackWalker.StackFrame bottom = last[0];
            if (bottom == null || bottom.getDeclaringClass() != Runner.class || !bottom.getMethodName().equals("main")) {
                return "a thread other than the runner's";
            }
            return null;
        });
        if (bad == null) return;
        try {
            System.out.flush();
            System.err.println("execir: " + what + " from " + bad + ": FAIL");
            System.err.flush();
        } catch (Throwable ignored) {
            // the status says FAIL
        } finally {
            Runtime.getRuntime().halt(1);
        }
    }

    /** The first statement of the tests' main: only the runner may start the tests. */
    public static void execirEnter() { guard("the tests were entered"); }

    public static int execirValue(int v) { guard("the tests called the candidate"); return v; }
    public static long execirValue(long v) { guard("the tests called the candidate"); return v; }
    public static double execirValue(double v) { guard("the tests called the candidate"); return v; }
    public static float execirValue(float v) { guard("the tests called the candidate"); return v; }
    public static boolean execirValue(boolean v) { guard("the tests called the candidate"); return v; }
    public static char execirValue(char v) { guard("the tests called the candidate"); return v; }
    public static short execirValue(short v) { guard("the tests called the candidate"); return v; }
    public static byte execirValue(byte v) { guard("the tests called the candidate"); return v; }

    @SuppressWarnings("unchecked")
    public static <T> T execirValue(T v) {
        guard("the tests called the candidate");
        return (T) copy(v, 0);
    }

    private static final Set<Class<?>> LEAVES = Set.of(String.class, Integer.class, Long.class, Double.class, Float.class,
            Short.class, Byte.class, Character.class, Boolean.class, BigInteger.class, BigDecimal.class,
            OptionalInt.class, OptionalLong.class, OptionalDouble.class);

    /** Fresh empty instances of the JDK collection and map classes whose copies keep their class (a
     *  method declared to return {@code Vector<String>} gets a {@code Vector} back). The key is the
     *  value's exact class: a candidate's subclass of one of them is never in this map. */
    private static final Map<Class<?>, Supplier<Object>> SAME_CLASS = Map.ofEntries(
            Map.entry(ArrayList.class, ArrayList::new),
            Map.entry(LinkedList.class, LinkedList::new),
            Map.entry(Vector.class, Vector::new),
            Map.entry(Stack.class, Stack::new),
            Map.entry(CopyOnWriteArrayList.class, CopyOnWriteArrayList::new),
            Map.entry(HashSet.class, HashSet::new),
            Map.entry(LinkedHashSet.class, LinkedHashSet::new),
            Map.entry(CopyOnWriteArraySet.class, CopyOnWriteArraySet::new),
            Map.entry(ArrayDeque.class, ArrayDeque::new),
            Map.entry(ConcurrentLinkedQueue.class, ConcurrentLinkedQueue::new),
            Map.entry(ConcurrentLinkedDeque.class, ConcurrentLinkedDeque::new),
            Map.entry(LinkedBlockingQueue.class, LinkedBlockingQueue::new),
            Map.entry(LinkedBlockingDeque.class, LinkedBlockingDeque::new),
            Map.entry(HashMap.class, HashMap::new),
            Map.entry(LinkedHashMap.class, LinkedHashMap::new),
            Map.entry(Hashtable.class, Hashtable::new),
            Map.entry(ConcurrentHashMap.class, ConcurrentHashMap::new));

    /** An empty sorted or priority collection of the value's exact JDK class (TreeSet, TreeMap,
     *  PriorityQueue, ConcurrentSkipListSet/Map) in the same order, when that order is the JDK's natural
     *  or reverse order; else null (any other comparator is candidate code: the copy is then a
     *  LinkedHashSet, LinkedHashMap or LinkedList in the value's iteration order). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object sortedLike(Object v, Class<?> c) {
        Comparator<?> comparator;
        if (c == TreeSet.class || c == ConcurrentSkipListSet.class) comparator = ((SortedSet<?>) v).comparator();
        else if (c == TreeMap.class || c == ConcurrentSkipListMap.class) comparator = ((SortedMap<?, ?>) v).comparator();
        else if (c == PriorityQueue.class) comparator = ((PriorityQueue<?>) v).comparator();
        else return null;
        if (comparator != null && comparator != Comparator.naturalOrder() && comparator != Collections.reverseOrder()) return null;
        Comparator o = comparator;
        if (c == TreeSet.class) return new TreeSet(o);
        if (c == ConcurrentSkipListSet.class) return new ConcurrentSkipListSet(o);
        if (c == TreeMap.class) return new TreeMap(o);
        if (c == ConcurrentSkipListMap.class) return new ConcurrentSkipListMap(o);
        return new PriorityQueue(o);
    }

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
        if (c == StringBuffer.class) return new StringBuffer(v.toString());
        Supplier<Object> same = SAME_CLASS.get(c);
        Object out = same != null ? same.get() : sortedLike(v, c);
        if (v instanceof Map) {
            Map m = out instanceof Map ? (Map) out : new LinkedHashMap();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) m.put(copy(e.getKey(), depth + 1), copy(e.getValue(), depth + 1));
            return m;
        }
        if (v instanceof Map.Entry) {
            Map.Entry<?, ?> e = (Map.Entry<?, ?>) v;
            if (c == AbstractMap.SimpleEntry.class) return new AbstractMap.SimpleEntry(copy(e.getKey(), depth + 1), copy(e.getValue(), depth + 1));
            return new AbstractMap.SimpleImmutableEntry(copy(e.getKey(), depth + 1), copy(e.getValue(), depth + 1));
        }
        if (v instanceof Collection) {
            Collection o;
            if (out instanceof Collection) o = (Collection) out;
            else if (v instanceof List) o = new ArrayList();
            else if (v instanceof Set) o = new LinkedHashSet();
            else if (v instanceof Deque) o = new ArrayDeque();
            else if (v instanceof Queue) o = new LinkedList();
            else o = new ArrayList();
            List copied = new ArrayList();
            for (Object e : (Collection<?>) v) copied.add(copy(e, depth + 1));
            if (o instanceof ArrayDeque && copied.contains(null)) o = new LinkedList();
            o.addAll(copied);
            return o;
        }
        throw new AssertionError("execir: the candidate returned a value of class " + c.getName() + ", which the tests cannot compare safely");
    }
}
