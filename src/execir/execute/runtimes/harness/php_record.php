<?php
// ExecIR's trusted record run (judged outside): the reference program with the task's tests, its
// entry function renamed and wrapped by a recorder that writes to fd 3 the argument line of every
// call the tests make (taken before the call; calls made while the reference runs are not
// recorded), then the nonce once the tests completed. Arguments with no exact wire form (objects
// other than stdClass, closures, resources) or named ones stop the run: the tests stay in-process.
final class ExecIRRecord
{
    private static $out;
    private static string $nonce = '';
    private static string $entry = '';
    private static int $depth = 0;

    public static function prepare(string $entry): void
    {
        self::$out = \fopen('php://fd/3', 'w');
        self::$nonce = ExecIREntry::nonce();
        self::$entry = $entry;
        \mt_srand(0);
        \srand(0);
        if (!ExecIREntry::rename($entry)) {
            ExecIREntry::stop("the reference declares no function $entry");
        }
    }

    public static function arm(): void
    {
        if (!\function_exists(ExecIREntry::PREFIX . self::$entry)) {
            ExecIREntry::stop('the reference did not define ' . self::$entry . ' at load');
        }
        eval(ExecIREntry::wrapper(self::$entry, '\ExecIRRecord::call'));
    }

    public static function call(array $args): mixed
    {
        $reference = ExecIREntry::PREFIX . self::$entry;
        if (self::$depth > 0) {
            return $reference(...$args);
        }
        try {
            $line = ExecIRWire::encodeCall($args, true);
        } catch (ExecIRUnencodable $e) {
            ExecIREntry::stop("the tests' arguments have no exact wire form: " . $e->getMessage());
        }
        \fwrite(self::$out, $line . "\n");
        \fflush(self::$out);
        self::$depth++;
        try {
            return $reference(...$args);
        } finally {
            self::$depth--;
        }
    }

    public static function done(): never
    {
        \fwrite(self::$out, self::$nonce . "\n");
        \fflush(self::$out);
        ExecIREntry::end(0);
    }
}
ExecIRRecord::prepare($argv[1]);
require ExecIREntry::RENAMED;
ExecIRRecord::arm();
require ExecIREntry::TESTS;
ExecIRRecord::done();
