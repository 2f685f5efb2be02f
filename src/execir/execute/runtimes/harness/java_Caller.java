package execir;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The candidate's run of a split job (arguments: the entry point's class and name): each line of
 *  the calls file is decoded into the parameter types of the program's own method of that name and
 *  arity, the method is called on this thread (one instance for every call, as the tests make one),
 *  and one line per call goes to fd 3: {@code {"ok": VALUE}} (with {@code "after"} when an argument
 *  changed in place), {@code {"raised": "NearestJdkThrowable"}}, or {@code {"bad": "why"}} (the
 *  arguments or the value have no wire form). Nothing here is trusted by the judge. */
public final class Caller {
    private Caller() {}

    public static void main(String[] args) {
        int status = 1;
        try {
            List<String> calls = Files.readAllLines(Paths.get("@CALLS_FILE@"), StandardCharsets.UTF_8);
            Channel channel = Channel.open();
            Class<?> entry = Class.forName(args[0], false, Caller.class.getClassLoader());
            List<Method> named = new ArrayList<>();
            for (Method m : entry.getDeclaredMethods()) {
                if (m.getName().equals(args[1]) && !m.isSynthetic() && !m.isBridge()) named.add(m);
            }
            named.sort(Comparator.comparing(Method::toGenericString));
            Object[] self = {null};
            for (String line : calls) channel.line(call(entry, named, line, self));
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

    private static String call(Class<?> entry, List<Method> named, String line, Object[] self) throws Exception {
        Object parsed = Json.parse(line);
        if (!(parsed instanceof List)) return bad("a call is a list of arguments");
        List<?> wire = (List<?>) parsed;
        Method method = null;
        Object[] values = null;
        for (Method m : named) {
            if (m.getParameterCount() != wire.size()) continue;
            try {
                Type[] types = m.getGenericParameterTypes();
                Object[] decoded = new Object[types.length];
                for (int i = 0; i < types.length; i++) decoded[i] = Wire.decode(wire.get(i), types[i], 0);
                method = m;
                values = decoded;
                break;
            } catch (Wire.Mismatch | IllegalArgumentException | ClassCastException e) {
                // the next overload
            }
        }
        if (method == null) return bad("no method " + entry.getName() + "." + (named.isEmpty() ? "?" : named.get(0).getName()) + " takes these arguments");
        String[] before = new String[values.length];
        for (int i = 0; i < values.length; i++) before[i] = Wire.encode(values[i]);
        Object result;
        try {
            method.setAccessible(true);
            Object target = null;
            if (!Modifier.isStatic(method.getModifiers())) {
                if (self[0] == null) {
                    Constructor<?> make = entry.getDeclaredConstructor();
                    make.setAccessible(true);
                    self[0] = make.newInstance();
                }
                target = self[0];
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
            for (int i = 0; i < values.length; i++) {
                String now = Wire.encode(values[i]);
                if (!now.equals(before[i])) changed.add("[" + i + "," + now + "]");
            }
            if (!changed.isEmpty()) out.append(",\"after\":[").append(String.join(",", changed)).append(']');
        } catch (Throwable e) {
            return bad(e.getClass().getName());
        }
        return out.append('}').toString();
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
