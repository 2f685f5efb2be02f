package execir;

import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The trusted runs of a split job: {@code record} (the reference with the tests; every call the
 *  tests make of the entry point is written to fd 3, then the reference answers it) and
 *  {@code judge} (the reference with the tests; the entry point answers with the candidate's decoded
 *  values). Arguments: mode, the entry point's class, its name, the tests' main class. The
 *  reference's entry method is renamed {@code execir$entry$NAME}; a trusted wrapper of the same
 *  signature calls {@link #call}. Calls from the reference's own code (recursion, helpers) go to the
 *  reference and are neither recorded nor replayed. */
public final class Split {
    public static final String PREFIX = "execir$entry$";
    private static final String REFERENCE_FILE = "Solution.java";
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    /** The wrapper's body: the renamed reference method applied to the wrapper's arguments. */
    public interface Body<R> {
        R run() throws Throwable;
    }

    private static String mode = "";
    private static Channel channel;
    private static Method reference;
    private static List<String> calls = List.of();
    private static List<String> results = List.of();
    private static int next;

    private Split() {}

    public static void main(String[] args) {
        int status = 1;
        try {
            String nonce = Channel.nonce("@NONCE_FILE@");
            channel = Channel.open();
            ClassLoader loader = Split.class.getClassLoader();
            Class<?> entry = Class.forName(args[1], false, loader);
            for (Method m : entry.getDeclaredMethods()) {
                if (m.getName().equals(PREFIX + args[2])) reference = m;
            }
            if (reference == null) throw new IllegalStateException("execir: no renamed entry method");
            if (args[0].equals("judge")) {
                calls = Files.readAllLines(Paths.get("@CALLS_FILE@"), StandardCharsets.UTF_8);
                results = Files.readAllLines(Paths.get("@RESULTS_FILE@"), StandardCharsets.UTF_8);
            }
            mode = args[0];
            Method main = Class.forName(args[3], false, loader).getDeclaredMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) throw new IllegalStateException("execir: main is not static");
            main.setAccessible(true);
            try {
                main.invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                throw e.getCause() == null ? e : e.getCause();
            }
            System.out.flush();
            System.err.flush();
            channel.line(nonce);
            status = 0;
        } catch (Throwable t) {
            report(t);
        } finally {
            Runtime.getRuntime().halt(status);
        }
    }

    private static void report(Throwable t) {
        try {
            System.out.flush();
            t.printStackTrace();
            System.err.flush();
        } catch (Throwable ignored) {
            // the status says FAIL
        }
    }

    /** Ends the run now with {@code status}, after one report line (no catch of the tests runs). */
    private static RuntimeException stop(String line, String more, int status) {
        try {
            channel.line(line);
            if (more != null) channel.line(more);
            System.out.flush();
            System.err.flush();
        } catch (Throwable ignored) {
            // the status decides
        } finally {
            Runtime.getRuntime().halt(status);
        }
        return new IllegalStateException("unreachable");
    }

    /** Whether the wrapper was called by the reference's own code (below this method, {@link #call} and
     *  the wrapper, the first frame of a class of the
     *  work dir below the wrapper is in the reference's file), not by the tests. */
    private static boolean inner() {
        ClassLoader app = Split.class.getClassLoader();
        return WALKER.walk(frames -> frames.skip(3)
                .filter(f -> f.getDeclaringClass().getClassLoader() == app && !f.getDeclaringClass().getName().startsWith("execir."))
                .findFirst()
                .map(f -> REFERENCE_FILE.equals(f.getFileName()))
                .orElse(false));
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }

    private static <R> R run(Body<R> body) {
        try {
            return body.run();
        } catch (Throwable t) {
            throw Split.<RuntimeException>sneaky(t);
        }
    }

    /** The instances the tests called the entry method on, in the order they first did. */
    private static final IdentityHashMap<Object, Integer> RECEIVERS = new IdentityHashMap<>();

    /** The wrapper's hook: see the class comment. {@code self}: the instance the tests called the
     *  entry method on (null for a static one); a call on another instance than the first says
     *  which ({@code {"self": k, "args": [...]}}), so the candidate's run calls a fresh instance
     *  of its own wherever the tests made one. */
    public static <R> R call(Object self, Object[] args, Body<R> body) {
        if (mode.isEmpty() || inner()) return run(body);
        String text;
        try {
            text = Wire.encodeAll(args);
        } catch (Wire.Mismatch e) {
            throw stop("{\"unsupported\":" + quoted(e.getMessage()) + "}", null, 1);
        }
        if (self != null) {
            int k;
            synchronized (Split.class) {
                k = RECEIVERS.computeIfAbsent(self, o -> RECEIVERS.size());
            }
            if (k > 0) text = "{\"self\":" + k + ",\"args\":" + text + "}";
        }
        if (mode.equals("record")) {
            try {
                channel.line(text);
            } catch (IOException e) {
                throw stop("{\"lost\":0}", null, 1);
            }
            return run(body);
        }
        int i;
        synchronized (Split.class) {
            i = next++;
        }
        if (i >= calls.size() || !calls.get(i).equals(text)) throw stop("{\"need\":" + i + "}", text, 3);
        if (i >= results.size()) throw stop("{\"missing\":" + i + "}", null, 1);
        return replay(i, args);
    }

    private static String quoted(String s) {
        StringBuilder out = new StringBuilder();
        Json.quote(String.valueOf(s), out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static <R> R replay(int i, Object[] args) {
        Map<String, Object> line;
        Object value = null;
        Throwable raised = null;
        try {
            Object parsed = Json.parse(results.get(i));
            if (!(parsed instanceof Map)) throw new Wire.Mismatch("not an object");
            line = (Map<String, Object>) parsed;
            Set<String> keys = line.keySet();
            if (line.containsKey("ok") && keys.stream().allMatch(k -> k.equals("ok") || k.equals("after"))) {
                Type type = reference.getGenericReturnType();
                value = type == void.class ? null : Wire.decode(line.get("ok"), type, 0);
                if (line.containsKey("after")) raised = mutate(line.get("after"), args);
            } else if (keys.equals(Set.of("raised")) && line.get("raised") instanceof String) {
                raised = throwable((String) line.get("raised"));
            } else {
                throw new Wire.Mismatch("neither a value nor an exception");
            }
        } catch (Wire.Mismatch | IllegalArgumentException | ClassCastException | IndexOutOfBoundsException | ArithmeticException e) {
            throw stop("{\"malformed\":" + i + "}", null, 1);
        }
        if (raised != null) throw Split.<RuntimeException>sneaky(raised);
        return (R) value;
    }

    /** The candidate changed arguments in place ({@code [[index, value], ...]}): the tests' own
     *  argument objects get the same contents (a fixed-size or read-only one the candidate could not
     *  have changed: the UnsupportedOperationException it would have met is returned). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Throwable mutate(Object after, Object[] args) {
        if (!(after instanceof List)) throw new Wire.Mismatch("after is a list");
        Type[] types = reference.getGenericParameterTypes();
        for (Object item : (List<?>) after) {
            if (!(item instanceof List) || ((List<?>) item).size() != 2 || !(((List<?>) item).get(0) instanceof Json.Num)) throw new Wire.Mismatch("after: bad entry");
            int j = Integer.parseInt(((Json.Num) ((List<?>) item).get(0)).text);
            if (j < 0 || j >= args.length || args[j] == null) throw new Wire.Mismatch("after: bad index");
            Object target = args[j];
            Object now = Wire.decode(((List<?>) item).get(1), types[j], 0);
            try {
                if (target.getClass().isArray()) {
                    if (now == null || Array.getLength(now) != Array.getLength(target)) throw new Wire.Mismatch("after: an array keeps its length");
                    for (int k = 0; k < Array.getLength(now); k++) Array.set(target, k, Array.get(now, k));
                } else if (target instanceof List && now instanceof List && ((List) target).size() == ((List) now).size()) {
                    for (int k = 0; k < ((List) now).size(); k++) ((List) target).set(k, ((List) now).get(k));
                } else if (target instanceof Collection && now instanceof Collection) {
                    ((Collection) target).clear();
                    ((Collection) target).addAll((Collection) now);
                } else if (target instanceof Map && now instanceof Map) {
                    ((Map) target).clear();
                    ((Map) target).putAll((Map) now);
                } else {
                    throw new Wire.Mismatch("after: not a mutable argument");
                }
            } catch (UnsupportedOperationException e) {
                return new UnsupportedOperationException();
            }
        }
        return null;
    }

    /** The nearest standard exception to the candidate's: the JDK class named, else RuntimeException. */
    private static Throwable throwable(String name) {
        try {
            Class<?> c = Class.forName(name, false, null);
            if (Throwable.class.isAssignableFrom(c)) {
                try {
                    return (Throwable) c.getConstructor(String.class).newInstance("raised by the candidate");
                } catch (ReflectiveOperationException e) {
                    return (Throwable) c.getConstructor().newInstance();
                }
            }
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            // not a JDK throwable: the nearest standard one
        }
        return new RuntimeException("raised by the candidate: " + name);
    }
}
