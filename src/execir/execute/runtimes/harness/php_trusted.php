<?php
// ExecIR's trusted PHP runner: a warm `php`, outside the candidate's sandbox, that runs the record
// and judge plans of PHP tasks (the task's reference, its tests and ExecIR's harness: never candidate
// code; the candidate's values reach a judge only as wire text its codec decodes into PHP values) in
// a forked child each, so a trusted run costs a fork instead of an interpreter start.
//
// Requests and replies are frames (a 4-byte big-endian length, then JSON) on this process's stdin and
// stdout, one socket (a child closes both and opens /dev/null in their place: PHP cannot move a
// descriptor, it has no dup2, but a closed standard stream's number is the next one opened). Fd 3 of
// this process is already the write end of one pipe (the channel every trusted harness writes:
// php://fd/3) whose read end is $argv[1]; runs are one at a time, stale bytes are dropped before each. A request
// names the run's files, its script and arguments, its environment, the nonce, its CPU, wall, memory,
// file-size and descriptor budgets and the cap on what it may write to fd 3. The child starts a
// session of its own, gets a fresh private directory with those files (open_basedir=. then means
// that directory: this process runs without it and each child sets it), that environment and its
// rlimits, and runs the script at global scope as
// `php script args` would (an uncaught exception or fatal error ends it with status 255, the end of
// the script with status 0). The child also holds one end of a socket pair until it (and anything it
// started) is gone, so its end is seen without polling. A forked PHP that exits runs PHP's whole
// shutdown, which frees every internal class and function the child shares with this process
// copy-on-write (about 2 ms of CPU and 12 ms of wall per run on a 2-core host, most of a trusted run):
// so once the script and its shutdown functions are done, a child whose exit status is known (the
// harness's EXECIR_EXIT_STATUS, the end of the script, 255 after a fatal error or an uncaught
// exception) sends that status on its end of the pair and kills itself; any other exit takes PHP's
// own way. The reply carries the child's exit status or
// signal, what it wrote to fd 3 (base64), its CPU time, and whether a budget or the cap stopped it; a
// request this process cannot read (JSON PHP does not decode, such as a lone surrogate) is declined:
// the plan then runs in the sandbox.
final class ExecIRTrusted
{
    private static $channel;
    private static string $root = '';
    private static array $request = [];
    private static $held;

    private static array $null = [];

    public static function open(int $channel): void
    {
        self::$channel = \fopen("php://fd/$channel", 'r');
        \stream_set_blocking(self::$channel, false);
        self::$root = \getcwd();
        self::send(['op' => 'hello', 'php' => \PHP_VERSION]);
    }

    private static function read(int $size): ?string
    {
        $data = '';
        while (\strlen($data) < $size) {
            $chunk = \fread(\STDIN, $size - \strlen($data));
            if ($chunk === false || $chunk === '') {
                return null;
            }
            $data .= $chunk;
        }
        return $data;
    }

    private static function send(array $reply): void
    {
        $body = \json_encode($reply, \JSON_UNESCAPED_SLASHES);
        $data = \pack('N', \strlen($body)) . $body;
        while ($data !== '') {
            $written = \fwrite(\STDOUT, $data);
            if ($written === false || $written === 0) {
                exit(1);
            }
            $data = (string) \substr($data, $written);
        }
        \fflush(\STDOUT);
    }

    /** The next request (null: the host closed the socket); a request it cannot read is declined. */
    public static function next(): ?array
    {
        while (true) {
            $header = self::read(4);
            if ($header === null) {
                return null;
            }
            $body = self::read(\unpack('N', $header)[1]);
            if ($body === null) {
                return null;
            }
            $request = \json_decode($body, true);
            if (\is_array($request) && \is_array($request['files'] ?? null) && \is_string($request['script'] ?? null)) {
                return $request;
            }
            self::send(['op' => 'decline']);
        }
    }

    /** Forks the run's child (0 in the child, which then runs the script; null in this process once
     * the run was answered). */
    public static function fork(array $request): ?int
    {
        self::drain(1 << 20); // bytes a previous run's leftovers wrote after it was answered
        $dir = self::$root . '/run-' . \bin2hex(\random_bytes(8));
        \mkdir($dir, 0700);
        foreach ($request['files'] as $name => $text) {
            $path = "$dir/$name";
            if (!\is_dir(\dirname($path))) {
                \mkdir(\dirname($path), 0700, true);
            }
            \file_put_contents($path, $text);
        }
        [$alive, $held] = \stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, \STREAM_IPPROTO_IP);
        $started = \hrtime(true);
        $pid = \pcntl_fork();
        if ($pid === 0) {
            \fclose($alive);
            self::$held = $held; // open until the child and everything it started are gone
            self::child($request, $dir);
            return 0;
        }
        \fclose($held);
        $reply = self::wait($pid, $alive, $request, $started);
        \fclose($alive);
        self::remove($dir);
        self::send($reply);
        return null;
    }

    private static function child(array $request, string $dir): void
    {
        \posix_setsid();
        \fclose(\STDIN); // the control socket: /dev/null takes numbers 0 and 1 in its place
        \fclose(\STDOUT);
        \fclose(self::$channel);
        self::$null = [\fopen('/dev/null', 'r'), \fopen('/dev/null', 'w')];
        \chdir($dir);
        \ini_set('open_basedir', '.');
        foreach (\array_keys(\getenv()) as $name) {
            \putenv((string) $name);
        }
        $env = \array_merge(\is_array($request['env']) ? $request['env'] : [], ['EXECIR_NONCE' => (string) $request['nonce']]);
        foreach ($env as $name => $value) {
            \putenv("$name=$value");
        }
        $_ENV = $env;
        $cpu = (int) \ceil($request['cpu']);
        \posix_setrlimit(\POSIX_RLIMIT_CPU, $cpu, $cpu + 1);
        $memory = $request['memory_mb'] << 20;
        \posix_setrlimit(\POSIX_RLIMIT_AS, $memory, $memory);
        $size = $request['file_size_mb'] << 20;
        \posix_setrlimit(\POSIX_RLIMIT_FSIZE, $size, $size);
        \posix_setrlimit(\POSIX_RLIMIT_NOFILE, $request['nofile'], $request['nofile']);
        \posix_setrlimit(\POSIX_RLIMIT_CORE, 0, 0);
        self::$request = $request;
        \register_shutdown_function([self::class, 'ending']);
    }

    /** The first shutdown function: puts end() after those the script registers. */
    public static function ending(): void
    {
        \register_shutdown_function([self::class, 'end']);
    }

    /** The child's last shutdown function: its known exit status to this process, then SIGKILL. */
    public static function end(): void
    {
        $error = \error_get_last();
        $fatal = [\E_ERROR, \E_PARSE, \E_CORE_ERROR, \E_COMPILE_ERROR, \E_USER_ERROR, \E_RECOVERABLE_ERROR];
        if ($error !== null && \in_array($error['type'], $fatal, true)) {
            $status = 255;
        } elseif (\defined('EXECIR_EXIT_STATUS') && \is_int(\EXECIR_EXIT_STATUS)) {
            $status = \EXECIR_EXIT_STATUS & 255;
        } else {
            return;
        }
        \fwrite(self::$held, \chr($status));
        \posix_kill(\posix_getpid(), \SIGKILL);
    }

    /** The child's script (a path relative to its directory). */
    public static function script(): string
    {
        return self::$request['script'];
    }

    /** The child's $argv: the script, then its arguments. */
    public static function argv(): array
    {
        $argv = \array_merge([self::$request['script']], \array_map('strval', self::$request['args']));
        $now = \microtime(true);
        $_SERVER = \array_merge($_ENV, [
            'REQUEST_TIME' => (int) $now,
            'REQUEST_TIME_FLOAT' => $now,
            'argv' => $argv,
            'argc' => \count($argv),
            'PHP_SELF' => $argv[0],
            'SCRIPT_NAME' => $argv[0],
            'SCRIPT_FILENAME' => $argv[0],
            'PATH_TRANSLATED' => $argv[0],
            'DOCUMENT_ROOT' => '',
        ]);
        return $argv;
    }

    private static function wait(int $pid, $alive, array $request, int $started): array
    {
        $data = '';
        $reported = null;
        $cap = (int) $request['cap'];
        $deadline = $started + (int) ($request['wall'] * 1e9);
        $stopped = null;
        while (true) {
            $left = $deadline - \hrtime(true);
            if ($left <= 0) {
                $stopped = 'wall';
                break;
            }
            $read = [self::$channel, $alive];
            $none = null;
            $ready = @\stream_select($read, $none, $none, \intdiv($left, 1000000000), \intdiv($left % 1000000000, 1000));
            if ($ready === false || $ready === 0) {
                continue;
            }
            $data .= self::drain($cap - \strlen($data));
            if (\strlen($data) > $cap) {
                $stopped = 'cap';
                break;
            }
            if (\in_array($alive, $read, true)) {
                $said = \fread($alive, 1);
                if ($said !== false && $said !== '') {
                    $reported = \ord($said);
                } elseif (\feof($alive)) {
                    break;
                }
            }
        }
        if ($stopped !== null) {
            @\posix_kill(-$pid, \SIGKILL);
        }
        $usage = [];
        \pcntl_waitpid($pid, $status, 0, $usage);
        @\posix_kill(-$pid, \SIGKILL); // anything the child left in its session
        if ($stopped === null) {
            $data .= self::drain($cap - \strlen($data));
            $stopped = \strlen($data) > $cap ? 'cap' : null;
        }
        $cpu = $usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec'] + ($usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec']) / 1e6;
        $signal = \pcntl_wifsignaled($status) ? \pcntl_wtermsig($status) : null;
        $timeout = $stopped === 'wall' ? 'wall' : null;
        if ($timeout === null && ($cpu > $request['cpu'] || $signal === \SIGXCPU)) {
            $timeout = 'cpu';
        }
        $exited = \pcntl_wifexited($status) ? \pcntl_wexitstatus($status) : null;
        if ($reported !== null && $stopped === null && $signal === \SIGKILL) {
            [$exited, $signal] = [$reported, null]; // it killed itself once its status was known
        }
        return [
            'status' => $exited,
            'signal' => $signal,
            'data' => \base64_encode(\substr($data, 0, $cap + 1)),
            'timeout' => $timeout,
            'capped' => $stopped === 'cap',
            'cpu' => $cpu,
            'wall' => (\hrtime(true) - $started) / 1e9,
        ];
    }

    /** What the channel holds now, stopping once past $room bytes. */
    private static function drain(int $room = \PHP_INT_MAX): string
    {
        $data = '';
        while (\strlen($data) <= $room && ($chunk = \fread(self::$channel, 65536)) !== false && $chunk !== '') {
            $data .= $chunk;
        }
        return $data;
    }

    private static function remove(string $path): void
    {
        if (\is_link($path) || !\is_dir($path)) {
            @\unlink($path);
            return;
        }
        foreach (\scandir($path) ?: [] as $name) {
            if ($name !== '.' && $name !== '..') {
                self::remove("$path/$name");
            }
        }
        @\rmdir($path);
    }
}

ExecIRTrusted::open((int) $argv[1]);
while (($execir_request = ExecIRTrusted::next()) !== null) {
    if (ExecIRTrusted::fork($execir_request) === 0) {
        unset($execir_request);
        $argv = ExecIRTrusted::argv();
        $argc = \count($argv);
        require ExecIRTrusted::script();
        \defined('EXECIR_EXIT_STATUS') || \define('EXECIR_EXIT_STATUS', 0);
        exit(0);
    }
}
