package execir;

import java.io.FileDescriptor;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** fd 3 of a run (the sandbox's socket; {@code /proc/self/fd/3} cannot be opened for a socket) as a
 *  stream of lines both ways, and the run's nonce taken from its file. */
public final class Channel {
    private final OutputStream out;
    private final InputStream in;

    private Channel(OutputStream out, InputStream in) {
        this.out = out;
        this.in = in;
    }

    public static Channel open() throws ReflectiveOperationException {
        Field theUnsafe = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        theUnsafe.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) theUnsafe.get(null);
        FileDescriptor descriptor = new FileDescriptor();
        unsafe.putInt(descriptor, unsafe.objectFieldOffset(FileDescriptor.class.getDeclaredField("fd")), 3);
        return new Channel(new FileOutputStream(descriptor), new BufferedInputStream(new FileInputStream(descriptor), 1 << 16));
    }

    /** The next line the host wrote (UTF-8, without its newline); null at the end of the channel.
     *  (The host writes a line only once the previous one is answered, so a buffer never holds more.) */
    public String next() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != -1;) {
            if (b == '\n') return new String(line.toByteArray(), StandardCharsets.UTF_8);
            line.write(b);
        }
        return null;
    }

    /** One line (the text must hold no newline), flushed at once. */
    public synchronized void line(String text) throws IOException {
        out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The nonce the sandbox's shell moved into {@code file}; the file is deleted. */
    public static String nonce(String file) throws IOException {
        Path path = Paths.get(file);
        byte[] nonce = Files.readAllBytes(path);
        Files.delete(path);
        String text = new String(nonce, StandardCharsets.UTF_8).trim();
        if (text.length() < 2) throw new IllegalStateException("execir: no nonce");
        return text;
    }
}
