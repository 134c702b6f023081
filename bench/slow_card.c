/* The slow-card rig's shim (LD_PRELOAD): fsync and fdatasync of files under one folder
 * are delayed by a seeded profile, and every delay is logged, so an SD card's syncs
 * can be played on a fast disk. Built by bench/slow_card.py with gcc.
 *
 * SLOW_CARD_DIR      only files whose path starts with this are delayed
 * SLOW_CARD_PROFILE  fixed:MS | uniform:LO-HI | mix (90% 3-8, 9% 20-40, 1% 100-250 ms)
 * SLOW_CARD_SEED     the random stream's seed (the same seed, the same delays)
 * SLOW_CARD_LOG      a file that gets "<start s> <delay ms> <fsync|fdatasync> <path>"
 *
 * The delay comes after the real sync: the durable point is as late as on the card. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int ready = 0;
static const char *folder = NULL;
static char kind[16] = "fixed";
static double lo = 0, hi = 0;
static uint64_t state = 0x9e3779b97f4a7c15ULL;
static FILE *log_file = NULL;
static int (*real_fsync)(int) = NULL;
static int (*real_fdatasync)(int) = NULL;

static uint64_t next_random(void) {  /* splitmix64: small, seedable, good enough */
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(double a, double b) {
    return a + (b - a) * ((double)(next_random() >> 11) / 9007199254740992.0);
}

static void setup(void) {
    if (ready) return;
    ready = 1;
    real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    folder = getenv("SLOW_CARD_DIR");
    const char *seed = getenv("SLOW_CARD_SEED");
    if (seed) state = strtoull(seed, NULL, 10) * 0x2545f4914f6cdd1dULL + 1;
    const char *profile = getenv("SLOW_CARD_PROFILE");
    if (profile) {
        if (sscanf(profile, "fixed:%lf", &lo) == 1) { hi = lo; strcpy(kind, "fixed"); }
        else if (sscanf(profile, "uniform:%lf-%lf", &lo, &hi) == 2) strcpy(kind, "uniform");
        else if (strcmp(profile, "mix") == 0) strcpy(kind, "mix");
    }
    const char *path = getenv("SLOW_CARD_LOG");
    if (path) log_file = fopen(path, "a");
}

static double draw_delay(void) {
    if (strcmp(kind, "mix") == 0) {
        double pick = uniform(0, 100);
        if (pick < 90) return uniform(3, 8);
        if (pick < 99) return uniform(20, 40);
        return uniform(100, 250);
    }
    if (strcmp(kind, "uniform") == 0) return uniform(lo, hi);
    return lo;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int slowed(int fd, int (*real)(int), const char *name) {
    pthread_mutex_lock(&lock);
    setup();
    pthread_mutex_unlock(&lock);
    double start = now();
    int result = real(fd);
    int saved = errno;
    if (folder == NULL || *folder == 0) { errno = saved; return result; }
    char link[64], target[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n <= 0) { errno = saved; return result; }
    target[n] = 0;
    if (strncmp(target, folder, strlen(folder)) != 0) { errno = saved; return result; }
    pthread_mutex_lock(&lock);
    double delay = draw_delay();
    if (log_file) {
        fprintf(log_file, "%.6f %.3f %s %s\n", start, delay, name, target);
        fflush(log_file);
    }
    pthread_mutex_unlock(&lock);
    struct timespec pause = {(time_t)(delay / 1000), (long)(((long long)(delay * 1e6)) % 1000000000LL)};
    while (nanosleep(&pause, &pause) != 0 && errno == EINTR) {}
    errno = saved;
    return result;
}

int fsync(int fd) {
    if (!real_fsync) { pthread_mutex_lock(&lock); setup(); pthread_mutex_unlock(&lock); }
    return slowed(fd, real_fsync, "fsync");
}

int fdatasync(int fd) {
    if (!real_fdatasync) { pthread_mutex_lock(&lock); setup(); pthread_mutex_unlock(&lock); }
    return slowed(fd, real_fdatasync, "fdatasync");
}
