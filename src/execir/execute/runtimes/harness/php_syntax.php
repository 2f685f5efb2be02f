<?php
// ExecIR's PHP syntax check of a candidate's program (what `php -l` decides): program.php compiled by
// OPcache (opcache_compile_file: compiled, never run; nothing of it is declared), its optimiser off.
// On fd 3: the nonce line when it compiles; else the compiler's first message (as `php -l` shows it),
// status 1 (255 when a fatal error ended the process: the shutdown function PHP still runs reports
// it). The program's name is fixed, so a message names no directory of this host. The status is also
// left in EXECIR_EXIT_STATUS (see php_entry.php).
$execir_out = \fopen('php://fd/3', 'w');
\register_shutdown_function(static function () use ($execir_out): void {
    $error = \error_get_last();
    if ($error !== null && \in_array($error['type'], [\E_COMPILE_ERROR, \E_ERROR, \E_CORE_ERROR], true)) {
        \fwrite($execir_out, 'Fatal error: ' . \str_replace(\getcwd() . '/', '', $error['message']) . " in program.php on line {$error['line']}\n");
    }
});
\ini_set('display_errors', '1'); // a compile-time fatal error OPcache survives is only shown: keep it
\ob_start();
try {
    $execir_ok = \opcache_compile_file('program.php');
} catch (\ParseError $e) {
    \ob_end_clean();
    \fwrite($execir_out, 'Parse error: ' . $e->getMessage() . " in program.php on line {$e->getLine()}\n");
    \define('EXECIR_EXIT_STATUS', 1);
    exit(1);
}
$execir_shown = \trim(\str_replace(\getcwd() . '/', '', (string) \ob_get_clean()));
\opcache_invalidate('program.php', true);
if ($execir_ok !== true) {
    \fwrite($execir_out, ($execir_shown === '' ? 'program.php does not compile' : \explode("\n", $execir_shown)[0]) . "\n");
    \define('EXECIR_EXIT_STATUS', 1);
    exit(1);
}
\fwrite($execir_out, \getenv('EXECIR_NONCE') . "\n");
\define('EXECIR_EXIT_STATUS', 0);
exit(0);
