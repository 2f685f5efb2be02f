<?php
// ExecIR's trusted in-process runner: see execir/execute/runtimes/php.py.
final class ExecIRRunner
{
    private static ?\Generator $session = null;

    /** Reads and deletes the nonce and the tests before any program code runs; they stay locals of
     * a suspended generator's frame (no reflection API reads a frame's locals). */
    public static function arm(): void
    {
        self::$session = self::session();
        self::$session->current();
    }

    private static function session(): \Generator
    {
        $out = \fopen('php://fd/3', 'w');
        $nonce = \trim((string) \file_get_contents('.execir-nonce'));
        @\unlink('.execir-nonce');
        $tests = (string) \file_get_contents('tests.php');
        @\unlink('tests.php');
        if (\strlen($nonce) < 2) {
            \fwrite(\STDERR, "execir: no nonce\n");
            exit(1);
        }
        yield 0;
        eval('?>' . $tests);
        unset($tests);
        \fwrite($out, $nonce . "\n");
        \fflush($out);
        yield 1;
    }

    /** Runs the tests (in the generator's frame: their variables are its locals, not globals) and
     * ends the run: status 0 only once they completed and the nonce was written. */
    public static function finish(): never
    {
        $session = self::$session;
        try {
            if ($session === null || !$session->valid() || $session->current() !== 0) {
                throw new \RuntimeException('the tests were resumed by the program');
            }
            $session->next();
            if (!$session->valid() || $session->current() !== 1) {
                throw new \RuntimeException('the tests did not complete');
            }
        } catch (\Throwable $error) {
            try {
                \fwrite(\STDERR, 'execir: ' . \get_class($error) . ': ' . $error->getMessage() . ' at ' . $error->getFile() . ':' . $error->getLine() . "\n");
            } catch (\Throwable $e) {
            }
            exit(1);
        }
        exit(0);
    }
}
ExecIRRunner::arm();
require 'program.php';
ExecIRRunner::finish();
