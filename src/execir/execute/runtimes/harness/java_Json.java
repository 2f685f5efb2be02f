package execir;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A strict JSON reader (objects, arrays, strings, numbers kept as text, true/false/null) and the
 *  ASCII-only string writer of the wire format. Input that is not one JSON document, or nests deeper
 *  than {@link #MAX_DEPTH}, is an {@link IllegalArgumentException}. */
public final class Json {
    public static final int MAX_DEPTH = 400;

    /** A JSON number, as its text (the wire keeps integers as bare numbers only). */
    public static final class Num {
        public final String text;
        Num(String text) { this.text = text; }
    }

    /** JSON {@code null} inside the tree (a Java null is never a tree node). */
    public static final Object NULL = new Object();

    private final String text;
    private int at;

    private Json(String text) { this.text = text; }

    public static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value(0);
        reader.space();
        if (reader.at != text.length()) throw new IllegalArgumentException("json: trailing text at " + reader.at);
        return value;
    }

    private void space() {
        while (at < text.length() && " \t\r\n".indexOf(text.charAt(at)) >= 0) at++;
    }

    private char peek() {
        if (at >= text.length()) throw new IllegalArgumentException("json: unexpected end");
        return text.charAt(at);
    }

    private void expect(char c) {
        if (peek() != c) throw new IllegalArgumentException("json: expected " + c + " at " + at);
        at++;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw new IllegalArgumentException("json: nested too deeply");
        space();
        char c = peek();
        if (c == '{') return object(depth);
        if (c == '[') return array(depth);
        if (c == '"') return string();
        if (text.startsWith("true", at)) { at += 4; return Boolean.TRUE; }
        if (text.startsWith("false", at)) { at += 5; return Boolean.FALSE; }
        if (text.startsWith("null", at)) { at += 4; return NULL; }
        return number();
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> out = new LinkedHashMap<>();
        expect('{');
        space();
        if (peek() == '}') { at++; return out; }
        while (true) {
            space();
            String key = string();
            space();
            expect(':');
            if (out.put(key, value(depth + 1)) != null) throw new IllegalArgumentException("json: duplicate key " + key);
            space();
            if (peek() == ',') { at++; continue; }
            expect('}');
            return out;
        }
    }

    private List<Object> array(int depth) {
        List<Object> out = new ArrayList<>();
        expect('[');
        space();
        if (peek() == ']') { at++; return out; }
        while (true) {
            out.add(value(depth + 1));
            space();
            if (peek() == ',') { at++; continue; }
            expect(']');
            return out;
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = peek();
            at++;
            if (c == '"') return out.toString();
            if (c < 0x20) throw new IllegalArgumentException("json: control character in a string");
            if (c != '\\') { out.append(c); continue; }
            char e = peek();
            at++;
            switch (e) {
                case '"': out.append('"'); break;
                case '\\': out.append('\\'); break;
                case '/': out.append('/'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'n': out.append('\n'); break;
                case 'r': out.append('\r'); break;
                case 't': out.append('\t'); break;
                case 'u':
                    if (at + 4 > text.length()) throw new IllegalArgumentException("json: short \\u escape");
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                    break;
                default: throw new IllegalArgumentException("json: bad escape \\" + e);
            }
        }
    }

    private Num number() {
        int start = at;
        if (at < text.length() && text.charAt(at) == '-') at++;
        while (at < text.length() && "0123456789.eE+-".indexOf(text.charAt(at)) >= 0) at++;
        String found = text.substring(start, at);
        if (!found.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) throw new IllegalArgumentException("json: bad number " + found);
        return new Num(found);
    }

    /** {@code s} as a JSON string of ASCII characters only: every UTF-16 unit outside printable ASCII
     *  is a {@code \\uXXXX} escape, so lone surrogates survive and the text is valid UTF-8. */
    public static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') out.append('\\').append(c);
            else if (c >= 0x20 && c < 0x7f) out.append(c);
            else out.append(String.format("\\u%04x", (int) c));
        }
        out.append('"');
    }
}
