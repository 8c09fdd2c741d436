/* Preloaded into the aarch64 test binaries that scripts/test-aarch64.sh runs under
 * qemu-aarch64, where qemu-user hangs at the first thread a program starts.
 *
 * Every pthread_create fails with EAGAIN, which Rust's standard library reports as
 * io::ErrorKind::WouldBlock; libtest then runs the test on the calling thread instead of
 * a new one. A test that starts a thread itself fails (it sees the error), so it is
 * found, not hung. */
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
