<?php
// ExecIR's wire codec for PHP values judged outside (see execir/execute/runtimes/php_split.py).
// One value is one JSON value: null/true/false and every int (64 bits) are JSON literals, a list
// (array_is_list) is a JSON array, everything else a one-key tagged object: {"f":"TEXT"} (a float:
// var_export's shortest round-trip text under serialize_precision=-1, "-0.0", "INF", "-INF", "NAN"),
// {"s":"text"} (a string that is valid UTF-8 without quotes, backslashes or control characters, so
// JSON strings are never escaped), {"x":"hex"} (any other string: its bytes), {"m":[[K,V],...]}
// (an array that is no list: its keys, int or string, in order), {"o":[[NAME,V],...]} (a stdClass
// and its properties in order), {"c":NAME,"p":[[NAME,V],...]} (an object of another class and its
// public properties; not in arguments; decodes to an ExecIROpaque carrying them, equal only to such
// objects), {"u":"kind"} (a resource, closure or value nested too deep; not in arguments). Keys and
// names are string values ({"s"}/{"x"}); an array key is a JSON integer when it is an int. Arguments
// are a JSON array of values. Nothing here is overridable by a program: PHP functions and classes
// cannot be redefined, and this file is loaded before any program.

#[AllowDynamicProperties]
final class ExecIROpaque
{
    public function __construct(public string $execirKind = '')
    {
    }
}

final class ExecIRUnencodable extends \Exception
{
}

final class ExecIRMalformed extends \Exception
{
}

final class ExecIRWire
{
    public const MAX_DEPTH = 512;

    /** The JSON text of $value; $strict: anything with no exact form (objects other than stdClass,
     * closures, resources, cycles, nesting beyond MAX_DEPTH) throws ExecIRUnencodable. */
    public static function encode(mixed $value, bool $strict): string
    {
        $seen = [];
        return self::put($value, $strict, $seen, 0);
    }

    /** The argument line of one call (a list of positional arguments). */
    public static function encodeCall(array $args, bool $strict): string
    {
        $seen = [];
        $parts = [];
        $i = 0;
        foreach ($args as $key => $arg) {
            if ($key !== $i) {
                throw new ExecIRUnencodable('named or out-of-order arguments');
            }
            $parts[] = self::put($arg, $strict, $seen, 1);
            $i++;
        }
        return '[' . \implode(',', $parts) . ']';
    }

    private static function opaque(bool $strict, string $kind): string
    {
        if ($strict) {
            throw new ExecIRUnencodable($kind);
        }
        return '{"u":' . self::text($kind) . '}';
    }

    private static function put(mixed $value, bool $strict, array &$seen, int $depth): string
    {
        if ($value === null) {
            return 'null';
        }
        if ($value === true) {
            return 'true';
        }
        if ($value === false) {
            return 'false';
        }
        if (\is_int($value)) {
            return (string) $value;
        }
        if (\is_float($value)) {
            return '{"f":"' . self::floatText($value) . '"}';
        }
        if (\is_string($value)) {
            return self::text($value);
        }
        if ($depth > self::MAX_DEPTH) {
            return self::opaque($strict, 'a value nested too deep');
        }
        if (\is_array($value)) {
            $parts = [];
            if (\array_is_list($value)) {
                foreach ($value as $item) {
                    $parts[] = self::put($item, $strict, $seen, $depth + 1);
                }
                return '[' . \implode(',', $parts) . ']';
            }
            foreach ($value as $key => $item) {
                $parts[] = '[' . (\is_int($key) ? (string) $key : self::text($key)) . ',' . self::put($item, $strict, $seen, $depth + 1) . ']';
            }
            return '{"m":[' . \implode(',', $parts) . ']}';
        }
        if (\is_object($value)) {
            $class = \get_class($value);
            if ($strict && $class !== 'stdClass') {
                throw new ExecIRUnencodable('an object of class ' . $class);
            }
            if ($value instanceof \Closure || $value instanceof \Generator || $value instanceof \UnitEnum || $value instanceof \Fiber) {
                return self::opaque($strict, $class);
            }
            $id = \spl_object_id($value);
            if (isset($seen[$id])) {
                return self::opaque($strict, 'an object containing itself');
            }
            $seen[$id] = true;
            $parts = [];
            foreach (\get_object_vars($value) as $name => $item) {
                $parts[] = '[' . self::text((string) $name) . ',' . self::put($item, $strict, $seen, $depth + 1) . ']';
            }
            unset($seen[$id]);
            $body = '[' . \implode(',', $parts) . ']';
            return $class === 'stdClass' ? '{"o":' . $body . '}' : '{"c":' . self::text($class) . ',"p":' . $body . '}';
        }
        return self::opaque($strict, \get_debug_type($value));
    }

    public static function floatText(float $value): string
    {
        if (\is_nan($value)) {
            return 'NAN';
        }
        if (\is_infinite($value)) {
            return $value > 0 ? 'INF' : '-INF';
        }
        $text = \var_export($value, true);
        if ((float) $text !== $value || ($value == 0.0 && (\fdiv(1.0, $value) < 0) !== (\fdiv(1.0, (float) $text) < 0))) {
            $text = \sprintf('%.17G', $value);
        }
        return $text;
    }

    public static function text(string $value): string
    {
        if (\preg_match('//u', $value) === 1 && \preg_match('/["\\\\\x00-\x1f\x7f]/', $value) === 0) {
            return '{"s":"' . $value . '"}';
        }
        return '{"x":"' . \bin2hex($value) . '"}';
    }

    // ---- decoding: JSON text -> plain JSON values (json_decode) -> PHP values -----------------

    public static function parse(string $text): mixed
    {
        try {
            return \json_decode($text, true, self::MAX_DEPTH + 16, \JSON_THROW_ON_ERROR | \JSON_BIGINT_AS_STRING);
        } catch (\Throwable $e) {
            throw new ExecIRMalformed('not JSON: ' . $e->getMessage());
        }
    }

    /** The value of one parsed wire value. */
    public static function build(mixed $tree): mixed
    {
        if ($tree === null || \is_bool($tree) || \is_int($tree)) {
            return $tree;
        }
        if (!\is_array($tree)) {
            throw new ExecIRMalformed('a bare JSON string or number');
        }
        if (\array_is_list($tree)) {
            $items = [];
            foreach ($tree as $item) {
                $items[] = self::build($item);
            }
            return $items;
        }
        $keys = \array_keys($tree);
        $tag = $keys[0];
        $allowed = ['f' => [], 's' => [], 'x' => [], 'm' => [], 'o' => [], 'c' => ['p'], 'u' => []];
        if (!isset($allowed[$tag]) || \array_diff($keys, [$tag], $allowed[$tag]) !== []) {
            throw new ExecIRMalformed('an untagged object');
        }
        $body = $tree[$tag];
        switch ($tag) {
            case 'f':
                return self::buildFloat($body);
            case 's':
            case 'x':
                return self::buildString($tree);
            case 'm':
                $table = [];
                foreach (self::listOf($body) as $entry) {
                    [$key, $item] = self::pair($entry);
                    if (!\is_int($key)) {
                        $key = self::buildString($key);
                    }
                    if (\array_key_exists($key, $table)) {
                        throw new ExecIRMalformed('a duplicate key');
                    }
                    $table[$key] = self::build($item);
                }
                return $table;
            case 'o':
                $object = new \stdClass();
                self::fill($object, $body);
                return $object;
            case 'c':
                $object = new ExecIROpaque(self::buildString($body));
                self::fill($object, $tree['p'] ?? []);
                return $object;
            default:
                return new ExecIROpaque(\is_array($body) ? self::buildString($body) : '');
        }
    }

    private static function fill(object $object, mixed $body): void
    {
        foreach (self::listOf($body) as $entry) {
            [$name, $item] = self::pair($entry);
            $object->{self::buildString($name)} = self::build($item);
        }
    }

    private static function buildFloat(mixed $body): float
    {
        $special = ['NAN' => \NAN, 'INF' => \INF, '-INF' => -\INF];
        if (\is_string($body) && isset($special[$body])) {
            return $special[$body];
        }
        if (!\is_string($body) || \preg_match('/\A-?[0-9]+(\.[0-9]+)?(E[+-]?[0-9]+)?\z/i', $body) !== 1) {
            throw new ExecIRMalformed('bad float text');
        }
        return (float) $body;
    }

    private static function buildString(mixed $tree): string
    {
        if (!\is_array($tree) || \count($tree) !== 1) {
            throw new ExecIRMalformed('expected a string');
        }
        if (isset($tree['s']) && \is_string($tree['s'])) {
            return $tree['s'];
        }
        if (isset($tree['x']) && \is_string($tree['x']) && \preg_match('/\A(?:[0-9a-f]{2})*\z/', $tree['x']) === 1) {
            return (string) \hex2bin($tree['x']);
        }
        throw new ExecIRMalformed('bad string');
    }

    private static function listOf(mixed $value): array
    {
        if (!\is_array($value) || !\array_is_list($value)) {
            throw new ExecIRMalformed('expected a list');
        }
        return $value;
    }

    private static function pair(mixed $value): array
    {
        if (!\is_array($value) || !\array_is_list($value) || \count($value) !== 2) {
            throw new ExecIRMalformed('expected a pair');
        }
        return $value;
    }

    /** The positional arguments of one argument line. */
    public static function decodeCall(string $text): array
    {
        $items = self::parse($text);
        if (!\is_array($items) || !\array_is_list($items)) {
            throw new ExecIRMalformed('an argument line is a list');
        }
        $args = [];
        foreach ($items as $item) {
            $args[] = self::build($item);
        }
        return $args;
    }
}
