/* A process in which no thread can be started: preloaded (LD_PRELOAD), it makes every
 * pthread_create fail with EAGAIN, as a process or `pids` cgroup limit does. Rust's
 * standard library reports that as io::ErrorKind::WouldBlock; libtest then runs each test
 * on the calling thread instead of a new one.
 *
 * Two uses:
 * - scripts/test-aarch64.sh preloads it (built with aarch64-linux-gnu-gcc) into the
 *   aarch64 test binaries and tool it runs under qemu-aarch64, where qemu-user hangs at
 *   the first thread a program starts; a program that needs a thread then fails (it
 *   sees the error) rather than hanging.
 * - The tests of "no thread can be started" build it for the machine with `cc`
 *   (testkit::threads, python/tests/conftest.py, duckdb/test) and run the library, the
 *   tool, the Python package and the DuckDB extension under it: root, which CI runs as,
 *   is not bound by RLIMIT_NPROC, so `ulimit -u` cannot refuse it a thread. */
#include <errno.h>
#include <pthread.h>

int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                   void *(*start)(void *), void *arg) {
    (void)thread;
    (void)attr;
    (void)start;
    (void)arg;
    return EAGAIN;
}
