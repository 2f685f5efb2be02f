<?php
// ExecIR's trusted judge run (judged outside): the reference program (its helpers) with the task's
// tests, its entry function renamed and replaced by a replayer that returns the candidate's values
// decoded into PHP values (or throws the exception the candidate's call threw); the tests' own
// checks (their `compare` helper) decide. The contract (need/missing/malformed lines, exit
// statuses) is Runtime.judge_plan's.
final class ExecIRJudge
{
    public const CALLS = 'execir_calls.jsonl';
    public const RESULTS = 'execir_results.jsonl';
    public const NEED = 3;
    private static $out;
    private static string $nonce = '';
    private static string $entry = '';
    private static array $calls = [];
    private static array $results = [];
    private static int $index = 0;

    public static function prepare(string $entry): void
    {
        self::$out = \fopen('php://fd/3', 'w');
        self::$nonce = ExecIREntry::nonce();
        self::$entry = $entry;
        self::$calls = self::lines(self::CALLS);
        self::$results = self::lines(self::RESULTS);
        \mt_srand(0);
        \srand(0);
        if (!ExecIREntry::rename($entry)) {
            ExecIREntry::stop("the reference declares no function $entry");
        }
    }

    private static function lines(string $name): array
    {
        $text = (string) \file_get_contents($name);
        return $text === '' ? [] : \explode("\n", \rtrim($text, "\n"));
    }

    public static function arm(): void
    {
        if (!\function_exists(ExecIREntry::PREFIX . self::$entry)) {
            ExecIREntry::stop('the reference did not define ' . self::$entry . ' at load');
        }
        eval(ExecIREntry::wrapper(self::$entry, '\ExecIRJudge::replay'));
    }

    private static function report(string $key, int $index, string $why): never
    {
        \fwrite(self::$out, "{\"$key\":$index}\n");
        \fflush(self::$out);
        ExecIREntry::stop("call $index: $why");
    }

    public static function replay(array $args): mixed
    {
        $index = self::$index++;
        try {
            $text = ExecIRWire::encodeCall($args, true);
        } catch (ExecIRUnencodable $e) {
            self::report('unencodable', $index, $e->getMessage());
        }
        if (!isset(self::$calls[$index]) || self::$calls[$index] !== $text) {
            \fwrite(self::$out, "{\"need\":$index}\n$text\n");
            \fflush(self::$out);
            ExecIREntry::end(self::NEED);
        }
        if (!isset(self::$results[$index])) {
            self::report('missing', $index, 'no result');
        }
        try {
            $tree = ExecIRWire::parse(self::$results[$index]);
            if (!\is_array($tree) || \array_is_list($tree)) {
                throw new ExecIRMalformed('not a result');
            }
            if (\array_key_exists('ok', $tree) && \array_diff(\array_keys($tree), ['ok', 'args']) === []) {
                $value = ExecIRWire::build($tree['ok']);
                if (\array_key_exists('args', $tree)) {
                    $after = ExecIRWire::build($tree['args']);
                    if (!\is_array($after) || !\array_is_list($after)) {
                        throw new ExecIRMalformed('arguments after the call are not a list');
                    }
                    foreach ($after as $i => $now) {
                        if (\array_key_exists($i, $args)) {
                            $args[$i] = $now;
                        }
                    }
                }
            } elseif (isset($tree['raised']) && \is_string($tree['raised']) && \array_diff(\array_keys($tree), ['raised', 'ancestors', 'message']) === []) {
                $error = self::exception($tree);
            } else {
                throw new ExecIRMalformed('not a result');
            }
        } catch (ExecIRMalformed $e) {
            self::report('malformed', $index, $e->getMessage());
        }
        if (isset($error)) {
            throw $error;
        }
        return $value;
    }

    /** The exception a call threw: the first of its class and ancestors (by name) that names a
     * Throwable class this process knows (PHP's or the reference's), with its message. */
    private static function exception(array $tree): \Throwable
    {
        $names = \array_merge([$tree['raised']], \is_array($tree['ancestors'] ?? null) ? $tree['ancestors'] : []);
        $message = isset($tree['message']) ? ExecIRWire::build($tree['message']) : '';
        $message = \is_string($message) ? $message : '';
        foreach ($names as $name) {
            if (!\is_string($name) || \preg_match('/\A\\\\?[A-Za-z_][A-Za-z0-9_]*(\\\\[A-Za-z_][A-Za-z0-9_]*)*\z/', $name) !== 1) {
                continue;
            }
            if (!\class_exists($name, false) || !\is_subclass_of($name, \Throwable::class) && $name !== \Throwable::class) {
                continue;
            }
            try {
                $class = new \ReflectionClass($name);
                if ($class->isInstantiable()) {
                    return new $name($message);
                }
            } catch (\Throwable $e) {
                continue;
            }
        }
        return new \Exception($message);
    }

    public static function done(): never
    {
        \fwrite(self::$out, self::$nonce . "\n");
        \fflush(self::$out);
        ExecIREntry::end(0);
    }
}
ExecIRJudge::prepare($argv[1]);
require ExecIREntry::RENAMED;
ExecIRJudge::arm();
require ExecIREntry::TESTS;
ExecIRJudge::done();
