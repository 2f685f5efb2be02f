#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <sys/syscall.h>
extern "C" int execir_tests_main();
static long execir_sys3(long number, long a, long b, long c) {
#if defined(__x86_64__)
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(number), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
    return ret;
#else
    return syscall(number, a, b, c);
#endif
}
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
int main() {
    int status = execir_tests_main();
    if (status != 0) return status;
    const char *nonce = std::getenv("EXECIR_NONCE");
    if (nonce == nullptr) return 122;
    execir_write(3, nonce, execir_len(nonce));
    execir_write(3, "\n", 1);
    return 0;
}
