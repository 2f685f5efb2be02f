package execir;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The candidate's run of a split job (arguments: the entry point's class and name, then the stand-ins
 *  of the tests' classes, loaded and their files deleted first): each line of
 *  fd 3 (one at a time) is decoded into the parameter types of the program's own method of that name and
 *  arity (of several overloads, the one taking most arguments at their exact types), the method is called on this thread (on one instance per instance the tests made: a call line
 *  {@code {"self": k, "args": [...]}} names the k-th),
 *  and one line per call goes to fd 3: {@code {"ok": VALUE}} (with {@code "after"} when an argument
 *  changed in place), {@code {"raised": "NearestJdkThrowable"}}, or {@code {"bad": "why"}} (the
 *  arguments or the value have no wire form). Nothing here is trusted by the judge. */
public final class Caller {
    private static final String STUBS_SOURCE = "Main.java";

    private Caller() {}

    /** The body of the stand-ins of the tests' classes (arguments after the entry point's): the
     *  program ran the tests' {@code main} itself, which only a search for their answers does. */
    public static void enteredTests() {
        try {
            System.err.println("execir: the program ran the tests' main: FAIL");
            System.err.flush();
        } finally {
            Runtime.getRuntime().halt(1);
        }
    }

    public static void main(String[] args) {
        int status = 1;
        try {
            Channel channel = Channel.open();
            ClassLoader loader = Caller.class.getClassLoader();
            for (int i = 2; i < args.length; i++) {
                Class.forName(args[i], false, loader);
                Files.deleteIfExists(Paths.get(args[i] + ".class"));
            }
            Files.deleteIfExists(Paths.get(STUBS_SOURCE));
            Class<?> entry = Class.forName(args[0], false, loader);
            List<Method> named = new ArrayList<>();
            for (Method m : entry.getDeclaredMethods()) {
                if (m.getName().equals(args[1]) && !m.isSynthetic() && !m.isBridge()) named.add(m);
            }
            named.sort(Comparator.comparing(Method::toGenericString));
            Map<Integer, Object> instances = new HashMap<>();
            // one call at a time: the host writes the next only once this one's result is written
            for (String line; (line = channel.next()) != null;) channel.line(call(entry, named, line, instances));
            System.out.flush();
            System.err.flush();
            status = 0;
        } catch (Throwable t) {
            try {
                t.printStackTrace();
            } catch (Throwable ignored) {
                // the missing lines say it
            }
        } finally {
            Runtime.getRuntime().halt(status);
        }
    }

    private static String bad(String why) {
        StringBuilder out = new StringBuilder("{\"bad\":");
        Json.quote(String.valueOf(why), out);
        return out.append('}').toString();
    }

    private static String call(Class<?> entry, List<Method> named, String line, Map<Integer, Object> instances) throws Exception {
        Object parsed = Json.parse(line);
        int receiver = 0;
        if (parsed instanceof Map && ((Map<?, ?>) parsed).keySet().equals(Set.of("self", "args")) && ((Map<?, ?>) parsed).get("self") instanceof Json.Num) {
            receiver = Integer.parseInt(((Json.Num) ((Map<?, ?>) parsed).get("self")).text);
            parsed = ((Map<?, ?>) parsed).get("args");
        }
        if (!(parsed instanceof List)) return bad("a call is a list of arguments");
        List<?> wire = (List<?>) parsed;
        Method method = null;
        Object[] values = null;
        int best = -1;
        boolean packed = false;
        for (Method m : named) {
            for (boolean pack : new boolean[] {false, true}) {
                if (pack ? !m.isVarArgs() || wire.size() < m.getParameterCount() - 1 : m.getParameterCount() != wire.size()) continue;
                try {
                    Object[] decoded = pack ? packed(m, wire) : new Object[wire.size()];
                    int exact = 0;
                    for (int i = 0; !pack && i < decoded.length; i++) {
                        decoded[i] = Wire.decode(wire.get(i), m.getGenericParameterTypes()[i], 0);
                        Object natural = Wire.decode(wire.get(i), Object.class, 0);
                        if (natural != null && box(m.getParameterTypes()[i]) == natural.getClass()) exact++;
                    }
                    if (exact > best) {
                        method = m;
                        values = decoded;
                        best = exact;
                        packed = pack;
                    }
                } catch (Wire.Mismatch | IllegalArgumentException | ClassCastException e) {
                    // the next overload
                }
            }
        }
        if (method == null) return bad("no method " + entry.getName() + "." + (named.isEmpty() ? "?" : named.get(0).getName()) + " takes these arguments");
        String[] before = new String[packed ? 0 : values.length];
        for (int i = 0; i < before.length; i++) before[i] = Wire.encode(values[i]);
        Object result;
        try {
            method.setAccessible(true);
            Object target = null;
            if (!Modifier.isStatic(method.getModifiers())) {
                target = instances.get(receiver);
                if (target == null) {
                    Constructor<?> make = entry.getDeclaredConstructor();
                    make.setAccessible(true);
                    target = make.newInstance();
                    instances.put(receiver, target);
                }
            }
            result = method.invoke(target, values);
        } catch (InvocationTargetException e) {
            return raised(e.getCause());
        }
        StringBuilder out = new StringBuilder("{\"ok\":");
        try {
            // the value is the program's: its iterators, equals or toString may throw anything
            out.append(method.getReturnType() == void.class ? "null" : Wire.encode(result));
            List<String> changed = new ArrayList<>();
            for (int i = 0; i < before.length; i++) {
                String now = Wire.encode(values[i]);
                if (!now.equals(before[i])) changed.add("[" + i + "," + now + "]");
            }
            if (!changed.isEmpty()) out.append(",\"after\":[").append(String.join(",", changed)).append(']');
        } catch (Throwable e) {
            return bad(e.getClass().getName());
        }
        return out.append('}').toString();
    }

    /** The arguments of a varargs method called with its trailing arguments spread out (the tests
     *  call {@code s.f(1, 2, 3)} of a program declaring {@code f(int... xs)}). */
    private static Object[] packed(Method m, List<?> wire) {
        int fixed = m.getParameterCount() - 1;
        Type[] types = m.getGenericParameterTypes();
        Object[] decoded = new Object[fixed + 1];
        for (int i = 0; i < fixed; i++) decoded[i] = Wire.decode(wire.get(i), types[i], 0);
        Type last = types[fixed];
        Type component = last instanceof GenericArrayType ? ((GenericArrayType) last).getGenericComponentType() : m.getParameterTypes()[fixed].getComponentType();
        Object rest = Array.newInstance(m.getParameterTypes()[fixed].getComponentType(), wire.size() - fixed);
        for (int i = fixed; i < wire.size(); i++) Array.set(rest, i - fixed, Wire.decode(wire.get(i), component, 0));
        decoded[fixed] = rest;
        return decoded;
    }

    /** The class a primitive parameter's values have on the wire (overloads taking exactly the
     *  arguments' types are preferred, as javac's first phase prefers them). */
    private static Class<?> box(Class<?> c) {
        if (!c.isPrimitive()) return c;
        if (c == int.class) return Integer.class;
        if (c == long.class) return Long.class;
        if (c == double.class) return Double.class;
        if (c == boolean.class) return Boolean.class;
        if (c == char.class) return Character.class;
        if (c == float.class) return Float.class;
        if (c == short.class) return Short.class;
        return Byte.class;
    }

    /** The nearest JDK class of what the call threw. */
    private static String raised(Throwable t) {
        Class<?> c = t == null ? RuntimeException.class : t.getClass();
        while (c.getClassLoader() != null) c = c.getSuperclass();
        StringBuilder out = new StringBuilder("{\"raised\":");
        Json.quote(c.getName(), out);
        return out.append('}').toString();
    }
}
