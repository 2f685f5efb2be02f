<?php
// ExecIR's caller (judged outside): the candidate's run. Loads the program at top level, then reads
// the calls from fd 3 one line at a time (the host writes call k + 1 only once result k is written,
// and ends the calls by shutting the channel), calls its entry function once per line, in order, through execir_invoke.php (which declares strict_types exactly when the program does, as
// the tests in the program's file would call it), and writes to fd 3 one line per call:
// {"ok":VALUE} (with "args":[...] when the call changed its arguments), or
// {"raised":"Class","ancestors":[...],"message":STRING}. No test code and no expected value is in
// this process; nothing it writes is trusted.
final class ExecIRCall
{
    private static $out;
    private static $in;
    private static string $entry = '';

    public static function prepare(string $entry): void
    {
        self::$entry = $entry;
        self::$out = \fopen('php://fd/3', 'w');
        self::$in = \fopen('php://fd/3', 'r');
    }

    public static function run(): never
    {
        $out = self::$out;
        $entry = self::$entry;
        while (($line = self::nextCall()) !== null) {
            try {
                $args = ExecIRWire::decodeCall($line);
            } catch (ExecIRMalformed $e) {
                \fwrite(\STDERR, "execir: an argument line is malformed\n");
                exit(1);
            }
            \fwrite($out, self::answer($entry, $args, $line));
            \fflush($out);
        }
        exit(0);
    }

    /** The next call line of fd 3, without its newline; null at the end of the calls. */
    private static function nextCall(): ?string
    {
        $line = '';
        while (!\str_ends_with($line, "\n")) {
            $part = \fgets(self::$in);
            if ($part === false) {
                return null;
            }
            $line .= $part;
        }
        return \substr($line, 0, -1);
    }

    private static function answer(string $entry, array $args, string $line): string
    {
        try {
            $value = execir_invoke($entry, $args);
        } catch (\Throwable $error) {
            return self::raised($error);
        }
        $text = '{"ok":' . self::encoded($value);
        try {
            $after = ExecIRWire::encodeCall($args, false);
        } catch (\Throwable $e) {
            $after = $line;
        }
        if ($after !== $line) {
            $text .= ',"args":' . $after;
        }
        return $text . "}\n";
    }

    private static function encoded(mixed $value): string
    {
        try {
            return ExecIRWire::encode($value, false);
        } catch (\Throwable $e) {
            return '{"u":{"s":"unencodable"}}';
        }
    }

    private static function raised(\Throwable $error): string
    {
        $names = [];
        for ($class = \get_class($error); $class !== false; $class = \get_parent_class($class)) {
            $names[] = \json_encode($class);
        }
        try {
            $message = ExecIRWire::text($error->getMessage());
        } catch (\Throwable $e) {
            $message = '{"s":""}';
        }
        return '{"raised":' . $names[0] . ',"ancestors":[' . \implode(',', \array_slice($names, 1)) . '],"message":' . $message . "}\n";
    }
}
require 'execir_invoke.php';
ExecIRCall::prepare($argv[1]);
require 'program.php';
ExecIRCall::run();
