package execir;

import java.io.DataInputStream;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Starts the tests (args: the tests' top-level class names), and writes the run's nonce to fd 3 only when they return.
 *  The tests' source and class files are gone from the work dir before any candidate code runs (the
 *  candidate cannot read the expected values out of them); the tests' main starts with
 *  {@link Boundary#execirEnter}, which halts the run unless it was entered from here. */
public final class Runner {
    /** The tests' source, deleted (as are their class files, once loaded) before any candidate code runs. */
    private static final String TESTS_SOURCE = "Main.java";
    private static final Pattern DESCRIPTOR = Pattern.compile("L([A-Za-z0-9_$]+);");

    private Runner() {}

    public static void main(String[] args) {
        int status = 1;
        try {
            String[] testClasses = args.clone();
            Path file = Paths.get("@NONCE_FILE@");
            byte[] nonce = Files.readAllBytes(file);
            Files.delete(file);
            if (nonce.length < 2) throw new IllegalStateException("execir: no nonce");
            ClassLoader loader = Runner.class.getClassLoader();
            for (String name : checkLinks(testClasses)) {
                Class.forName(name, false, loader);
                Files.delete(Paths.get(name + ".class"));
            }
            Files.deleteIfExists(Paths.get(TESTS_SOURCE));
            Class.forName("execir.Boundary", true, loader);
            Class<?> tests = Class.forName("Main", false, loader);
            Method main = tests.getMethod("main", String[].class);
            if (!Modifier.isStatic(main.getModifiers())) throw new IllegalStateException("execir: Main.main is not static");
            try {
                main.invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                throw e.getCause() == null ? e : e.getCause();
            }
            System.out.flush();
            System.err.flush();
            FileOutputStream record = new FileOutputStream(fd(3));
            record.write(nonce);
            record.flush();
            status = 0;
        } catch (Throwable t) {
            try {
                System.out.flush();
                t.printStackTrace();
                System.err.flush();
            } catch (Throwable ignored) {
                // the report is best effort; the status says FAIL
            }
        } finally {
            Runtime.getRuntime().halt(status);
        }
    }

    /** A FileDescriptor for an inherited fd (no public constructor takes an int). */
    private static FileDescriptor fd(int number) throws ReflectiveOperationException {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        FileDescriptor descriptor = new FileDescriptor();
        unsafe.putInt(descriptor, unsafe.objectFieldOffset(FileDescriptor.class.getDeclaredField("fd")), number);
        return descriptor;
    }

    private static boolean ours(String name, String[] testClasses) {
        if (name.equals("Solution") || name.startsWith("Solution$")) return true;
        for (String test : testClasses) {
            if (name.equals(test) || name.startsWith(test + "$")) return true;
        }
        return false;
    }

    /** The compiled tests may link to the JDK, to themselves and to Solution: a link to any other class
     *  of the work dir means the candidate's file shadowed a JDK name the tests use. */
    private static List<String> checkLinks(String[] testClasses) throws IOException {
        List<File> files = new ArrayList<>();
        String[] names = new File(".").list();
        if (names == null) throw new IOException("execir: cannot list the work dir");
        for (String name : names) {
            if (!name.endsWith(".class")) continue;
            String binary = name.substring(0, name.length() - 6);
            for (String test : testClasses) {
                if (binary.equals(test) || binary.startsWith(test + "$")) files.add(new File(name));
            }
        }
        List<String> loaded = new ArrayList<>();
        for (File file : files) {
            String binary = file.getName().substring(0, file.getName().length() - 6);
            loaded.add(binary);
            for (String linked : links(file)) {
                if (linked.indexOf('/') < 0 && !ours(linked, testClasses) && new File(linked + ".class").exists()) {
                    throw new AssertionError("execir: the tests link to " + linked + ", a class of the candidate's file (it shadows a name the tests use)");
                }
            }
        }
        return loaded;
    }

    private static Set<String> links(File file) throws IOException {
        Set<String> found = new HashSet<>();
        try (DataInputStream in = new DataInputStream(new FileInputStream(file))) {
            if (in.readInt() != 0xCAFEBABE) throw new IOException("execir: not a class file: " + file);
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            List<Integer> classes = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1: utf8[i] = in.readUTF(); break;
                    case 7: classes.add(in.readUnsignedShort()); break;
                    case 3: case 4: in.readInt(); break;
                    case 5: case 6: in.readLong(); i++; break;
                    case 8: case 16: case 19: case 20: in.readUnsignedShort(); break;
                    case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break;
                    case 15: in.readUnsignedByte(); in.readUnsignedShort(); break;
                    default: throw new IOException("execir: unknown constant tag " + tag + " in " + file);
                }
            }
            for (int index : classes) {
                String name = index < count && utf8[index] != null ? utf8[index] : "";
                found.add(name.startsWith("[") ? "" : name);
            }
            for (String text : utf8) {
                if (text == null) continue;
                Matcher m = DESCRIPTOR.matcher(text);
                while (m.find()) found.add(m.group(1));
            }
        }
        return found;
    }
}
