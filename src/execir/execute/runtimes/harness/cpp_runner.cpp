#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
extern "C" int execir_tests_main();
static long execir_sys5(long number, long a, long b, long c, long d, long e) {
#if defined(__x86_64__)
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(number), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8) : "rcx", "r11", "memory");
    return ret;
#else
    return syscall(number, a, b, c, d, e);
#endif
}
static long execir_sys3(long number, long a, long b, long c) { return execir_sys5(number, a, b, c, 0, 0); }
static void execir_write(int fd, const char *text, unsigned long size) {
    while (size > 0) {
        long done = execir_sys3(SYS_write, fd, (long)text, (long)size);
        if (done <= 0) return;
        text += done;
        size -= (unsigned long)done;
    }
}
static unsigned long execir_len(const char *text) {
    unsigned long n = 0;
    while (text[n]) n++;
    return n;
}
extern "C" void execir_assert_fail(const char *expr, const char *file, unsigned int line, const char *function) noexcept {
    (void)file; (void)line; (void)function;
    execir_write(2, "Assertion failed: ", 18);
    execir_write(2, expr, execir_len(expr));
    execir_write(2, "\n", 1);
    for (;;) execir_sys3(SYS_exit_group, 134, 0, 0);
}

// The run's nonce: the run command (runtimes/base.py HIDE_NONCE) moved it from the environment into
// NONCE_FILE; the first entry of the executable's .preinit_array (the program is a shared library,
// whose initializers the loader runs after it, or, in the one-unit form, an object linked after
// this one; the build refuses ifunc resolvers, the only program code the loader runs earlier) reads and deletes that file before any candidate
// initializer runs. It is kept masked with per-run random bytes, so it never sits in memory as the
// text it is written as.
static const char NONCE_FILE[] = "@NONCE_FILE@";
static const unsigned long NONCE_MAX = 128;
static unsigned char execir_nonce[NONCE_MAX];
static unsigned char execir_mask[NONCE_MAX];
static unsigned long execir_nonce_len = 0;
static int execir_entered = 0;

// No program may be executed once the runner has started: a program that ran the tests' executable
// again (/proc/self/exe, with guessed answers and a nonce file of its own) could learn the expected
// answers from how far the tests got. A seccomp filter (inherited by every thread and child)
// answers execve and execveat with EPERM; 0 when it is installed.
static long execir_forbid_exec() {
#if defined(__x86_64__)
    const unsigned int arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    const unsigned int arch = AUDIT_ARCH_AARCH64;
#else
    return -1;
#endif
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned int)offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),  // another ABI (int 0x80)
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned int)offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 3, 0),  // x32 numbers
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)SYS_execve, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)SYS_execveat, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    };
    struct sock_fprog program = {(unsigned short)(sizeof filter / sizeof filter[0]), filter};
    if (execir_sys5(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return execir_sys5(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, (long)&program, 0, 0);
}

static void execir_take_nonce(int, char **, char **) {
    long forbidden = execir_forbid_exec();
    long fd = execir_sys3(SYS_openat, AT_FDCWD, (long)NONCE_FILE, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    unsigned char raw[NONCE_MAX];
    unsigned long got = 0;
    for (;;) {
        long n = execir_sys3(SYS_read, fd, (long)(raw + got), (long)(NONCE_MAX - got));
        if (n <= 0) break;
        got += (unsigned long)n;
        if (got == NONCE_MAX) break;
    }
    execir_sys3(SYS_close, fd, 0, 0);
    execir_sys3(SYS_unlinkat, AT_FDCWD, (long)NONCE_FILE, 0);
    while (got > 0 && (raw[got - 1] == '\n' || raw[got - 1] == '\r')) got--;
    if (got == 0 || got == NONCE_MAX) return;
    if (execir_sys3(SYS_getrandom, (long)execir_mask, (long)got, 0) != (long)got) return;
    for (unsigned long i = 0; i < got; i++) {
        execir_nonce[i] = raw[i] ^ execir_mask[i];
        raw[i] = 0;
    }
    execir_nonce_len = got;
    if (forbidden != 0) {
        execir_write(2, "execir: could not forbid exec (seccomp)\n", 40);
        execir_nonce_len = 0;  // no record: the run FAILs
    }
}
__attribute__((section(".preinit_array"), used)) static void (*const execir_preinit)(int, char **, char **) = execir_take_nonce;

// Set by the executable's last initializer: the runner's object follows the tests' in the
// executable (ld -r t.o r.o), its constructor has no priority, and the program's library is
// initialized before the executable. Until then main was not called by the C runtime.
static int execir_ready = 0;
__attribute__((constructor)) static void execir_initialized() { execir_ready = 1; }

int main() {
    // the tests run once, after every initializer: candidate code calling main (to try answers in
    // a forked child, from a constructor or from the function under test) fails
    if (!execir_ready || execir_entered++) for (;;) execir_sys3(SYS_exit_group, 125, 0, 0);
    int status = execir_tests_main();
    if (status != 0) return status;
    if (execir_nonce_len == 0) return 122;
    char record[NONCE_MAX + 1];
    for (unsigned long i = 0; i < execir_nonce_len; i++) record[i] = (char)(execir_nonce[i] ^ execir_mask[i]);
    record[execir_nonce_len] = '\n';
    execir_write(3, record, execir_nonce_len + 1);
    return 0;
}
