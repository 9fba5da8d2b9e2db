/*
 * Algorithm choice: vine_set_algorithm(), then VINE_<COLL>_ALGORITHM (read
 * once per collective), then the auto selector, which follows the tuning
 * file (VINE_TUNING_FILE, read once) before its cost model and rules; the
 * introspection functions of vine.h; and the fallback chain used when a
 * schedule is built.
 *
 * Threads (threads.c): the settings a call reads on its way are atomics
 * (a setter racing a call is seen before or after, never torn); what is
 * read once is read under vine__lock behind an atomic flag; schedules are
 * built under vine__lock, which also guards the builders' and the
 * selector's own caches and the tuning table, so vine_set_tuning_file may
 * race calls.  Below MPI_THREAD_MULTIPLE the lock is never taken.
 */
#include "../select/select.h"
#include "api.h"
#include "vine.h"

#include <ctype.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ENV_NAME_MAX 64

_Atomic unsigned vine__choice_gen;
_Atomic unsigned vine__tuning_gen;

/* vine_set_algorithm()'s "auto": a value of choice[].api that no algorithm has. */
static const vine_algo api_auto;

static struct {
    /* vine_set_algorithm()'s choice: NULL before any, &api_auto for auto. */
    _Atomic(const vine_algo *) api;
    atomic_int env_read;  /* the environment has been read (the fields below are set) */
    int env_bad;          /* it names an unknown algorithm */
    const vine_algo *env; /* its choice; NULL for auto */
    char env_value[ENV_NAME_MAX];
    _Atomic(const char *) last; /* the algorithm that served the latest call */
} choice[VINE_COLL_COUNT];

static int valid_coll(vine_coll c)
{
    return (int)c >= 0 && c < VINE_COLL_COUNT;
}

/* Reads VINE_<COLL>_ALGORITHM, e.g. VINE_REDUCE_SCATTER_BLOCK_ALGORITHM, once. */
static void read_env_locked(vine_coll c)
{
    if (atomic_load_explicit(&choice[c].env_read, memory_order_relaxed))
        return;
    char var[96] = "VINE_";
    const char *name = vine__coll_name(c);
    size_t n = strlen(var);
    for (size_t i = 0; name[i] && n < sizeof var - 16; i++)
        var[n++] = (char)toupper((unsigned char)name[i]);
    strcpy(var + n, "_ALGORITHM");
    const char *v = getenv(var);
    if (v && *v && strcmp(v, "auto") != 0) {
        snprintf(choice[c].env_value, sizeof choice[c].env_value, "%s", v);
        choice[c].env = vine__algo_find(c, v);
        choice[c].env_bad = choice[c].env == NULL;
    }
    atomic_store_explicit(&choice[c].env_read, 1, memory_order_release);
}

static void read_env(vine_coll c)
{
    if (atomic_load_explicit(&choice[c].env_read, memory_order_acquire))
        return;
    vine__lock();
    read_env_locked(c);
    vine__unlock();
}

int vine__choose_requested(vine_coll coll, const vine_algo **req)
{
    const vine_algo *api = atomic_load_explicit(&choice[coll].api, memory_order_relaxed);
    if (api) {
        *req = api == &api_auto ? NULL : api;
        return MPI_SUCCESS;
    }
    read_env(coll);
    *req = choice[coll].env;
    return choice[coll].env_bad ? MPI_ERR_ARG : MPI_SUCCESS;
}

/*
 * Parses a byte count with an optional k/m/g suffix (powers of 1024) into
 * *bytes; -1 when malformed: not a decimal number (a sign included), trailing
 * characters, or too large for size_t.
 */
static int parse_bytes(const char *v, size_t *bytes)
{
    char *end;
    if (!isdigit((unsigned char)*v))
        return -1;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno)
        return -1;
    int shift = 0;
    switch (tolower((unsigned char)*end)) {
    case 'g':
        shift += 10;
        /* fall through */
    case 'm':
        shift += 10;
        /* fall through */
    case 'k':
        shift += 10;
        end++;
        break;
    default:
        break;
    }
    if (*end || n > (SIZE_MAX >> shift))
        return -1;
    *bytes = (size_t)n << shift;
    return 0;
}

/* The segment size in bytes (0: none). */
static _Atomic size_t seg_bytes;
/* VINE_SEGMENT_SIZE: 0 not read yet, 1 read (or overridden by the API), 2 malformed. */
static atomic_int seg_state;

int vine__choose_seg_env(void)
{
    int state = atomic_load_explicit(&seg_state, memory_order_relaxed);
    if (!state) {
        vine__lock();
        if (!(state = atomic_load_explicit(&seg_state, memory_order_relaxed))) {
            const char *v = getenv("VINE_SEGMENT_SIZE");
            size_t bytes = 0;
            state = v && *v && parse_bytes(v, &bytes) != 0 ? 2 : 1;
            atomic_store_explicit(&seg_bytes, state == 1 ? bytes : 0, memory_order_relaxed);
            atomic_store_explicit(&seg_state, state, memory_order_relaxed);
        }
        vine__unlock();
    }
    return state == 2 ? MPI_ERR_ARG : MPI_SUCCESS;
}

/* VINE_INPLACE_BYTES in bytes, and 0 not read yet, 1 read, 2 malformed. */
static _Atomic size_t inplace_bytes;
static atomic_int inplace_state;

int vine__choose_inplace_bytes(size_t *bytes)
{
    int state = atomic_load_explicit(&inplace_state, memory_order_acquire);
    if (!state) {
        vine__lock();
        if (!(state = atomic_load_explicit(&inplace_state, memory_order_relaxed))) {
            const char *v = getenv("VINE_INPLACE_BYTES");
            size_t n = (size_t)64 << 20;
            state = v && *v && (parse_bytes(v, &n) != 0 || n == 0) ? 2 : 1;
            atomic_store_explicit(&inplace_bytes, n, memory_order_relaxed);
            atomic_store_explicit(&inplace_state, state, memory_order_release);
        }
        vine__unlock();
    }
    *bytes = atomic_load_explicit(&inplace_bytes, memory_order_relaxed);
    return state == 2 ? MPI_ERR_ARG : MPI_SUCCESS;
}

size_t vine__choose_seg_count(size_t type_size)
{
    size_t bytes = atomic_load_explicit(&seg_bytes, memory_order_relaxed);
    if (!bytes || !type_size)
        return 0;
    return bytes >= type_size ? bytes / type_size : 1;
}

int vine_set_segment_size(MPI_Count bytes)
{
    if (bytes < 0)
        return MPI_ERR_ARG;
    vine__lock(); /* not undone by a first reading of the variable beside it */
    atomic_store_explicit(&seg_bytes, (size_t)bytes, memory_order_relaxed);
    /* the API overrides the variable, a malformed one included */
    atomic_store_explicit(&seg_state, 1, memory_order_relaxed);
    vine__unlock();
    vine__choice_gen++;
    return MPI_SUCCESS;
}

MPI_Count vine_get_segment_size(void)
{
    vine__choose_seg_env();
    return (MPI_Count)atomic_load_explicit(&seg_bytes, memory_order_relaxed);
}

/*
 * An on/off environment variable, read once into *value: set to anything
 * but empty or "0".  Threads that race to read it store the same answer.
 */
static int env_flag(const char *name, atomic_int *value)
{
    int v = atomic_load_explicit(value, memory_order_relaxed);
    if (v < 0) {
        const char *s = getenv(name);
        v = s && *s && strcmp(s, "0") != 0;
        atomic_store_explicit(value, v, memory_order_relaxed);
    }
    return v;
}

int vine__choose_remap(void)
{
    static atomic_int value = -1;
    return env_flag("VINE_REMAP", &value);
}

int vine__verbose(void)
{
    static atomic_int value = -1;
    return env_flag("VINE_VERBOSE", &value);
}

/*
 * What VINE_VERBOSE has said about a communicator lives in an attribute on
 * it, so that it goes when the communicator is freed (a later one may reuse
 * the handle) and is not copied by MPI_Comm_dup: one bit per collective, and
 * the N of "communicator #N" for a communicator without an MPI name, counted
 * once for libvine and libvine-mpi (src/pmpi/pmpi.c names its lines through
 * vine__say_comm_name).  The keyval is made once; the attributes are read
 * and set under vine__lock.
 */
typedef struct said_info {
    unsigned said;
    unsigned early;       /* the same for nonblocking calls before the state (vine__say_early) */
    unsigned long number; /* 0 until the communicator needs one */
} said_info;
static int said_keyval = MPI_KEYVAL_INVALID;
static unsigned long comm_numbers;

static int said_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    free(attr);
    return MPI_SUCCESS;
}

/* comm's record, made when it has none; NULL when MPI or memory refuses one (under vine__lock). */
static said_info *said_entry(MPI_Comm comm)
{
    if (said_keyval == MPI_KEYVAL_INVALID &&
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, said_delete, &said_keyval, NULL) !=
            MPI_SUCCESS) {
        said_keyval = MPI_KEYVAL_INVALID;
        return NULL;
    }
    void *v = NULL;
    int flag = 0;
    if (MPI_Comm_get_attr(comm, said_keyval, &v, &flag) != MPI_SUCCESS)
        return NULL;
    if (flag)
        return v;
    said_info *s = calloc(1, sizeof *s);
    if (s && MPI_Comm_set_attr(comm, said_keyval, s) != MPI_SUCCESS) {
        free(s);
        s = NULL;
    }
    return s;
}

/* comm's MPI name, or "communicator #N" numbered in order of first mention (under vine__lock). */
static void say_name(MPI_Comm comm, said_info *s, char *name, int size)
{
    int len = 0;
    if (MPI_Comm_get_name(comm, name, &len) == MPI_SUCCESS && len > 0)
        return;
    if (s && !s->number)
        s->number = ++comm_numbers;
    if (s)
        snprintf(name, (size_t)size, "communicator #%lu", s->number);
    else
        snprintf(name, (size_t)size, "a communicator");
}

void vine__say_release(void)
{
    vine__lock();
    if (said_keyval != MPI_KEYVAL_INVALID)
        MPI_Comm_free_keyval(&said_keyval);
    said_keyval = MPI_KEYVAL_INVALID;
    vine__unlock();
}

void vine__say_comm_name(MPI_Comm comm, char *name, int size)
{
    vine__lock();
    say_name(comm, said_entry(comm), name, size);
    vine__unlock();
}

static void say(MPI_Comm comm, int rank, int p, vine_coll coll, const char *algo, int early)
{
    if (!vine__verbose() || rank != 0)
        return;
    char name[MPI_MAX_OBJECT_NAME + 32];
    vine__lock();
    said_info *s = said_entry(comm);
    unsigned *bits = !s ? NULL : early ? &s->early : &s->said;
    if (bits && (*bits & (1u << coll))) {
        vine__unlock();
        return;
    }
    if (bits)
        *bits |= 1u << coll;
    say_name(comm, s, name, (int)sizeof name);
    vine__unlock();
    if (early)
        fprintf(stderr,
                "vine: %s on %s (p=%d) served by mpi (nonblocking, before the communicator's "
                "first blocking call set vine up)\n",
                vine__coll_name(coll), name, p);
    else if (algo)
        fprintf(stderr, "vine: %s on %s (p=%d) served by %s\n", vine__coll_name(coll), name, p,
                algo);
    else
        fprintf(stderr, "vine: %s on %s (p=%d) served by none (nothing to move)\n",
                vine__coll_name(coll), name, p);
}

void vine__say_served(MPI_Comm comm, int rank, int p, vine_coll coll, const char *algo)
{
    say(comm, rank, p, coll, algo, 0);
}

void vine__say_early(MPI_Comm comm, int rank, int p, vine_coll coll)
{
    say(comm, rank, p, coll, "mpi", 1);
}

int vine__status_to_mpi(int status)
{
    switch (status) {
    case VINE_OK:
        return MPI_SUCCESS;
    case VINE_ERR_NO_MEM:
        return MPI_ERR_NO_MEM;
    case VINE_ERR_UNSUPPORTED:
        return MPI_ERR_UNSUPPORTED_OPERATION;
    default:
        return MPI_ERR_INTERN;
    }
}

/* The one line VINE_VERBOSE prints when a requested algorithm cannot serve a call. */
#define WHY_EXCLUDED "is excluded by its restrictions"

static void say_fallback(const vine_args *a, const vine_algo *req, const char *why,
                         const vine_algo *served)
{
    /* Every rank makes the same choice, so one of them speaks for all. */
    if (!vine__verbose() || a->rank != 0)
        return;
    /* An exclusion names the restrictions the call failed ("commutative op", ...). */
    int excluded = strcmp(why, WHY_EXCLUDED) == 0;
    fprintf(stderr, "vine: %s algorithm '%s' %s%s%s%s (p=%d, count=%zu%s); using '%s'\n",
            vine__coll_name(a->coll), req->name, why, excluded ? " [" : "",
            excluded ? req->restrictions : "", excluded ? "]" : "", a->p, a->count,
            a->commutative ? "" : ", non-commutative op", served ? served->name : "none");
}

/* The one line VINE_VERBOSE prints when VINE_COST_FILE cannot be used. */
static void say_cost_file(int rank, const char *err)
{
    if (!vine__verbose() || rank != 0)
        return;
    fprintf(stderr, "vine: VINE_COST_FILE: %s; using the built-in cost parameters\n", err);
}

/*
 * Gives the auto selector the parameters of VINE_COST_FILE, read once before
 * its first choice (under vine__lock, as every build).  A file that cannot be used leaves the
 * defaults in place: the choice must never fail, and every rank that reads the same file (or fails
 * alike) still chooses alike.
 */
static void load_cost_file(int rank)
{
    static int loaded;
    if (loaded)
        return;
    loaded = 1;
    const char *path = getenv("VINE_COST_FILE");
    if (!path || !*path)
        return;
    vine_cost c;
    char err[512];
    if (vine__cost_load(&c, path, err, sizeof err) == VINE_OK) {
        vine__select_set_cost(&c);
        return;
    }
    vine__select_set_cost(NULL);
    say_cost_file(rank, err);
}

/* ---- the tuning file (VINE_TUNING_FILE, docs/tuning.md) ------------------ */

#define TUNING_MSG_MAX 640

/* Under vine__lock; state is also read without it, on every call. */
static struct {
    atomic_int state; /* 0: not read; 1: read, usable or none; 2: unusable */
    int has;          /* a table is in use */
    vine_tuning table;
    char msg[TUNING_MSG_MAX];
} tune;

/* The default location: $XDG_CONFIG_HOME/vine/tuning.json, else ~/.config/vine/tuning.json. */
static int default_tuning_path(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && *xdg)
        n = snprintf(buf, len, "%s/vine/tuning.json", xdg);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.config/vine/tuning.json", home);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

void vine__mpi_library_line(char *buf, size_t len)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0;
    buf[0] = '\0';
    if (PMPI_Get_library_version(v, &n) != MPI_SUCCESS)
        return;
    v[n < 0 ? 0 : (n < (int)sizeof v ? n : (int)sizeof v - 1)] = '\0';
    /* Copied by hand: MPICH's version string may hold 8191 bytes, more than buf. */
    size_t k = strcspn(v, "\r\n");
    while (k && v[k - 1] == ' ')
        k--;
    if (k >= len)
        k = len - 1;
    memcpy(buf, v, k);
    buf[k] = '\0';
}

/*
 * Under VINE_VERBOSE, rank 0 of MPI_COMM_WORLD (vine__world_speaker) says
 * which table auto follows, or why it cannot; nothing when there is none.
 */
static void say_tuning(const char *path)
{
    if (!vine__verbose() || (!tune.has && tune.state != 2) || !vine__world_speaker())
        return;
    if (tune.state == 2) {
        fprintf(stderr, "vine: tuning file unusable, every collective fails: %s\n", tune.msg);
        return;
    }
    fprintf(stderr, "vine: %s\n", tune.msg);
    char lib[VINE_TUNING_TEXT_MAX];
    vine__mpi_library_line(lib, sizeof lib);
    if (tune.has && tune.table.mpi_library[0] && strcmp(lib, tune.table.mpi_library) != 0)
        fprintf(stderr,
                "vine: warning: %s was measured with \"%s\", this run uses \"%s\": its "
                "choices may not fit\n",
                path, tune.table.mpi_library, lib);
}

/* Loads path as the table (state 1) or records why it cannot be used (state 2). */
static void load_tuning_path(const char *path)
{
    char err[TUNING_MSG_MAX - 64];
    int rc = vine__tuning_load(&tune.table, path, err, sizeof err);
    if (rc == VINE_OK) {
        tune.state = 1;
        tune.has = 1;
        /* The message names the file's last characters when the path is long. */
        size_t n = strlen(path), room = sizeof tune.msg - 40;
        snprintf(tune.msg, sizeof tune.msg, "tuning file %s%.*s: %d rules", n > room ? "..." : "",
                 (int)(n > room ? room - 3 : n), n > room ? path + n - (room - 3) : path,
                 tune.table.nrules);
        vine__select_set_tuning(&tune.table);
    } else {
        tune.state = 2;
        snprintf(tune.msg, sizeof tune.msg, "%s",
                 rc == VINE_ERR_NO_MEM ? "out of memory reading the tuning file" : err);
    }
}

/* Drops the table in use. */
static void tuning_none(const char *why)
{
    vine__select_set_tuning(NULL);
    vine__tuning_free(&tune.table);
    tune.has = 0;
    tune.state = 1;
    snprintf(tune.msg, sizeof tune.msg, "%s", why);
}

/* Reads VINE_TUNING_FILE (or the default location) once. */
static void read_tuning_env(void)
{
    const char *path = getenv("VINE_TUNING_FILE");
    char def[4096];
    if (path && !*path) {
        tuning_none("no tuning file (VINE_TUNING_FILE is empty)");
    } else if (path) {
        load_tuning_path(path);
    } else if (default_tuning_path(def, sizeof def) == 0 && access(def, F_OK) == 0) {
        path = def;
        load_tuning_path(def);
    } else {
        tuning_none("no tuning file (VINE_TUNING_FILE unset, none at the default location)");
    }
    say_tuning(path ? path : "");
}

int vine__choose_tuning_check(void)
{
    int state = atomic_load(&tune.state);
    if (!state) {
        vine__lock();
        if (!atomic_load(&tune.state))
            read_tuning_env();
        state = atomic_load(&tune.state);
        vine__unlock();
    }
    return state == 2 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int vine_set_tuning_file(const char *path)
{
    vine__lock();
    vine__select_set_tuning(NULL);
    vine__tuning_free(&tune.table);
    tune.has = 0;
    vine__choice_gen++;
    vine__tuning_gen++;
    int rc = MPI_SUCCESS;
    if (!path || !*path) {
        tuning_none("no tuning file (vine_set_tuning_file)");
    } else {
        load_tuning_path(path);
        say_tuning(path);
        rc = tune.state == 2 ? MPI_ERR_OTHER : MPI_SUCCESS;
    }
    vine__unlock();
    return rc;
}

int vine_tuning_info(int *nrules, char *msg, int msglen)
{
    if (msglen < 0)
        return MPI_ERR_ARG;
    vine__choose_tuning_check();
    vine__lock();
    int rc = tune.state == 2 ? MPI_ERR_OTHER : MPI_SUCCESS;
    if (nrules)
        *nrules = tune.has ? tune.table.nrules : 0;
    if (msg && msglen > 0)
        snprintf(msg, (size_t)msglen, "%s", tune.msg);
    vine__unlock();
    return rc;
}

void vine__choose_tuning_node(int node_ranks)
{
    vine__lock();
    if (tune.has && tune.table.ranks_per_node > 0 && node_ranks != tune.table.ranks_per_node &&
        vine__verbose() && vine__world_speaker())
        fprintf(stderr,
                "vine: warning: the tuning file was measured with %d ranks per node, this "
                "communicator has %d on its first node: its choices may not fit\n",
                tune.table.ranks_per_node, node_ranks);
    vine__unlock();
}

/*
 * Builds algo for a into s; the MPI library's collective ("mpi") has no
 * schedule, so its entry keeps an empty one and the API layer hands the call
 * to PMPI (vine__call_to_mpi).
 */
static int build_one(const vine_algo *algo, const vine_args *a, vine_sched *s)
{
    if (!(algo->flags & VINE_ALGO_MPI))
        return vine__algo_build(algo, a, s);
    if (vine__algo_admits(algo, a) != VINE_OK)
        return VINE_ERR_UNSUPPORTED;
    vine__sched_init(s, a->p, a->rank);
    return VINE_OK;
}

static int build_locked(const vine_args *a, const vine_algo *req, size_t type_size, vine_sched *s,
                        const vine_algo **served)
{
    load_cost_file(a->rank);
    size_t seg = 0;
    const vine_algo *tries[3] = {NULL, vine__select_auto_seg(a, type_size, &seg),
                                 vine__select_default(a->coll)};
    /* A tuning range's segment size applies to its own choice, unless one is set. */
    vine_args tuned = *a;
    if (seg && !a->seg_count && type_size)
        tuned.seg_count = seg >= type_size ? seg / type_size : 1;
    const char *why = WHY_EXCLUDED;
    int rc = VINE_ERR_UNSUPPORTED;
    if (req && vine__algo_admits(req, a) == VINE_OK)
        tries[0] = req;
    for (int i = 0; i < 3; i++) {
        if (!tries[i] || (i > 0 && tries[i] == tries[i - 1]) || (i == 2 && tries[2] == tries[0]))
            continue;
        rc = build_one(tries[i], i == 1 ? &tuned : a, s);
        if (rc == VINE_OK) {
            *served = tries[i];
            if (req && tries[i] != req)
                say_fallback(a, req, why, tries[i]);
            return MPI_SUCCESS;
        }
        if (rc == VINE_ERR_NO_MEM)
            break;
        if (i == 0)
            why = "could not build this call's schedule";
    }
    if (req)
        say_fallback(a, req, why, NULL);
    return vine__status_to_mpi(rc);
}

/* Building communicates with nobody: the lock is safe to hold meanwhile. */
int vine__choose_build(const vine_args *a, const vine_algo *req, size_t type_size, vine_sched *s,
                       const vine_algo **served)
{
    vine__lock();
    int rc = build_locked(a, req, type_size, s, served);
    vine__unlock();
    return rc;
}

void vine__choose_note(vine_coll coll, const vine_algo *served)
{
    atomic_store_explicit(&choice[coll].last, served->name, memory_order_relaxed);
}

int vine_set_algorithm(vine_coll coll, const char *name)
{
    if (!valid_coll(coll))
        return MPI_ERR_ARG;
    const vine_algo *algo = NULL;
    if (name && strcmp(name, "auto") != 0 && !(algo = vine__algo_find(coll, name)))
        return MPI_ERR_ARG;
    atomic_store_explicit(&choice[coll].api, algo ? algo : &api_auto, memory_order_relaxed);
    vine__choice_gen++;
    return MPI_SUCCESS;
}

const char *vine_get_algorithm(vine_coll coll)
{
    if (!valid_coll(coll))
        return "unknown";
    const vine_algo *api = atomic_load_explicit(&choice[coll].api, memory_order_relaxed);
    if (api)
        return api == &api_auto ? "auto" : api->name;
    read_env(coll);
    if (choice[coll].env)
        return choice[coll].env->name;
    return choice[coll].env_bad ? choice[coll].env_value : "auto";
}

int vine_algorithm_count(vine_coll coll)
{
    return valid_coll(coll) ? vine__algo_count(coll) : 0;
}

const char *vine_algorithm_name(vine_coll coll, int i)
{
    const vine_algo *a = valid_coll(coll) && i >= 0 ? vine__algo_nth(coll, i) : NULL;
    return a ? a->name : NULL;
}

const char *vine_algorithm_restrictions(vine_coll coll, int i)
{
    const vine_algo *a = valid_coll(coll) && i >= 0 ? vine__algo_nth(coll, i) : NULL;
    return a ? a->restrictions : NULL;
}

const char *vine_algorithm_description(vine_coll coll, int i)
{
    const vine_algo *a = valid_coll(coll) && i >= 0 ? vine__algo_nth(coll, i) : NULL;
    return a ? a->desc : NULL;
}

const char *vine_coll_name(vine_coll coll)
{
    return vine__coll_name(coll);
}

const char *vine_last_algorithm(vine_coll coll)
{
    if (!valid_coll(coll))
        return "unknown";
    const char *last = atomic_load_explicit(&choice[coll].last, memory_order_relaxed);
    return last ? last : "none";
}
