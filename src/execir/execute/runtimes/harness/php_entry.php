<?php
// ExecIR's trusted runs judged outside (record, judge): the reference's entry function renamed (its
// declaration's name token, found with PHP's own tokenizer) and a function of the entry's name
// defined in its place (see execir/execute/runtimes/php_split.py).
final class ExecIREntry
{
    public const PROGRAM = 'program.php';
    public const RENAMED = 'execir_reference.php';
    public const TESTS = 'tests.php';
    public const PREFIX = 'execir_reference_';

    public static function stop(string $message, int $status = 1): never
    {
        try {
            \fwrite(\STDERR, "execir: $message\n");
        } catch (\Throwable $e) {
        }
        self::end($status);
    }

    /** exit($status), the status also left in EXECIR_EXIT_STATUS: the trusted runner
     * (php_trusted.php) then ends its forked child without PHP's shutdown. */
    public static function end(int $status): never
    {
        \defined('EXECIR_EXIT_STATUS') || \define('EXECIR_EXIT_STATUS', $status);
        exit($status);
    }

    public static function nonce(): string
    {
        $found = \getenv('EXECIR_NONCE');
        if (!\is_string($found) || \strlen($found) < 2) {
            self::stop('no nonce');
        }
        return $found;
    }

    /** Writes the reference with its function $entry renamed to PREFIX.$entry (every top-level or
     * conditional declaration `function entry(`, not methods); false when it declares none. */
    public static function rename(string $entry): bool
    {
        $source = (string) \file_get_contents(self::PROGRAM);
        $tokens = \token_get_all($source);
        $out = '';
        $found = false;
        $depth = 0;
        $classDepth = [];
        $pendingClass = false;
        $count = \count($tokens);
        for ($i = 0; $i < $count; $i++) {
            $token = $tokens[$i];
            $text = \is_array($token) ? $token[1] : $token;
            if (\is_array($token) && \in_array($token[0], [\T_CLASS, \T_TRAIT, \T_INTERFACE, \T_ENUM], true)) {
                $pendingClass = true;
            }
            if ($text === '{' || (\is_array($token) && \in_array($token[0], [\T_CURLY_OPEN, \T_DOLLAR_OPEN_CURLY_BRACES], true))) {
                if ($pendingClass) {
                    $classDepth[] = $depth;
                    $pendingClass = false;
                }
                $depth++;
            } elseif ($text === '}') {
                $depth--;
                if ($classDepth !== [] && \end($classDepth) === $depth) {
                    \array_pop($classDepth);
                }
            } elseif ($text === ';') {
                $pendingClass = false;
            }
            $out .= $text;
            if (!\is_array($token) || $token[0] !== \T_FUNCTION || $classDepth !== []) {
                continue;
            }
            $j = $i + 1;
            while ($j < $count && \is_array($tokens[$j]) && \in_array($tokens[$j][0], [\T_WHITESPACE, \T_COMMENT, \T_DOC_COMMENT], true)) {
                $j++;
            }
            if ($j < $count && $tokens[$j] === '&') {
                $j++;
                while ($j < $count && \is_array($tokens[$j]) && $tokens[$j][0] === \T_WHITESPACE) {
                    $j++;
                }
            }
            if ($j < $count && \is_array($tokens[$j]) && $tokens[$j][0] === \T_STRING && \strcasecmp($tokens[$j][1], $entry) === 0) {
                for ($k = $i + 1; $k < $j; $k++) {
                    $out .= \is_array($tokens[$k]) ? $tokens[$k][1] : $tokens[$k];
                }
                $out .= self::PREFIX . $tokens[$j][1];
                $i = $j;
                $found = true;
            }
        }
        if ($found) {
            \file_put_contents(self::RENAMED, $out);
        }
        return $found;
    }

    /** The source of `function $entry(...)` with the renamed reference's parameters (by-reference
     * ones kept, so a call's changes reach the caller's variables, no types, optional ones
     * defaulting to null) whose body calls $handler with the arguments actually passed. */
    public static function wrapper(string $entry, string $handler): string
    {
        $reflection = new \ReflectionFunction(self::PREFIX . $entry);
        $params = [];
        $body = '$n = \func_num_args(); $args = [];';
        foreach ($reflection->getParameters() as $i => $param) {
            $ref = $param->isPassedByReference() ? '&' : '';
            if ($param->isVariadic()) {
                $params[] = "$ref...\$rest";
                $body .= " foreach (\$rest as \$k => $ref\$r) { if (!\\is_int(\$k)) { ExecIREntry::stop('a named argument'); } \$args[] = $ref\$r; unset(\$r); }";
                break;
            }
            $params[] = "$ref\$p$i" . ($param->isOptional() ? ' = null' : '');
            $body .= " if (\$n > $i) { \$args[] = $ref\$p$i; }";
        }
        if (!$reflection->isVariadic()) {
            $body .= ' foreach (\array_slice(\func_get_args(), \count($args)) as $extra) { $args[] = $extra; }';
        }
        return "function $entry(" . \implode(', ', $params) . ") { $body return $handler(\$args); }";
    }

    public static function describe(\Throwable $error): string
    {
        return \get_class($error) . ': ' . $error->getMessage() . ' at ' . $error->getFile() . ':' . $error->getLine();
    }
}
