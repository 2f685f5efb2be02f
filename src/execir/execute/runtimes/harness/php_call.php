<?php
// ExecIR's caller (judged outside): the candidate's run. Decodes every recorded argument line before
// the program loads, loads the program at top level, calls its entry function once per line, in
// order, through execir_invoke.php (which declares strict_types exactly when the program does, as
// the tests in the program's file would call it), and writes to fd 3 one line per call:
// {"ok":VALUE} (with "args":[...] when the call changed its arguments), or
// {"raised":"Class","ancestors":[...],"message":STRING}. No test code and no expected value is in
// this process; nothing it writes is trusted.
final class ExecIRCall
{
    public const CALLS = 'execir_calls.jsonl';
    private static $out;
    private static array $calls = [];
    private static string $entry = '';

    public static function prepare(string $entry): void
    {
        self::$entry = $entry;
        self::$out = \fopen('php://fd/3', 'w');
        $text = (string) \file_get_contents(self::CALLS);
        foreach ($text === '' ? [] : \explode("\n", \rtrim($text, "\n")) as $line) {
            try {
                self::$calls[] = [ExecIRWire::decodeCall($line), $line];
            } catch (ExecIRMalformed $e) {
                \fwrite(\STDERR, "execir: an argument line is malformed\n");
                exit(1);
            }
        }
    }

    public static function run(): never
    {
        $out = self::$out;
        $entry = self::$entry;
        foreach (self::$calls as [$args, $line]) {
            \fwrite($out, self::answer($entry, $args, $line));
            \fflush($out);
        }
        exit(0);
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
