// main of the trusted record and judge runs: the tests' own main (renamed in their object to
// execir_tests_main, so it keeps main's implicit return 0) runs, and only once it returned 0 is
// the run's nonce written to fd 3 (the record of completion). No candidate code is in this process.
#include <cstdlib>
#include <cstring>
#include <unistd.h>
extern "C" int execir_tests_main(int argc, char **argv, char **envp);

int main(int argc, char **argv, char **envp) {
    int status = execir_tests_main(argc, argv, envp);
    if (status != 0) return status;
    const char *nonce = std::getenv("EXECIR_NONCE");
    if (nonce == nullptr || *nonce == 0) return 122;
    size_t n = std::strlen(nonce);
    char record[256];
    if (n + 1 > sizeof record) return 122;
    std::memcpy(record, nonce, n);
    record[n] = '\n';
    if (write(3, record, n + 1) != (ssize_t)(n + 1)) return 122;
    return 0;
}
