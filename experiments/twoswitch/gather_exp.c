/*
 * The gather/scatter experiment of Kandalla et al., "Designing Topology-Aware
 * Collective Communication Algorithms for Large Scale InfiniBand Clusters"
 * (section 5), for SimGrid's smpirun on twoswitch.xml (run.sh starts it).
 *
 * MPI_COMM_WORLD holds two jobs: the first --job ranks (296) are the measured
 * job, the others (96) the background job, whose first half sits on switch A
 * and second half on switch B (run.sh writes the host file that way).
 *
 * The job times vine_gather and vine_scatter (root 0, MPI_BYTE, a block of
 * `size` bytes per rank, size 0 and 1 B to --max-bytes in powers of two) with
 * each algorithm of --algos, the first being the baseline, on a quiet network
 * and then with the background job busy.  Before any timing it asks vine for
 * the levels it found (vine_topology_info) and prints them.  Per size and
 * algorithm: --iters calls (--busy-iters with the background), each after a
 * barrier of the job and timed on every process; the first call's result is
 * compared byte for byte with the expected data, and vine_last_algorithm()
 * must name the algorithm asked for after every call (a fallback fails the
 * run).  Reported per size: the completion time (the largest time over the
 * processes: the root's in a gather, the last receiver's in a scatter) and
 * the paper's measure, each process's time averaged over the processes.
 *
 * The background job, when busy, loops on an alltoall that keeps only the
 * inter-switch exchanges (as the paper's modified alltoall does): every
 * process exchanges --bg-bytes with each process on the other switch, one
 * peer at a time (pairwise, as an MPI alltoall of large messages does).
 * Between two alltoalls background rank 0 looks (MPI_Iprobe) for the job's
 * stop command and broadcasts the decision to the others, so they all leave
 * after the same iteration; it then answers
 * the job, which waits for that answer before it measures on a quiet network
 * again.  The job always ends the background with a quit command, also after
 * an error, so nothing waits forever.
 *
 * --probe R1,R2,... first measures a ping-pong between job rank 0 and each
 * listed rank (0 B latency and 1 MiB bandwidth), to show what the platform
 * gives within a node, a switch and across the core switch.
 *
 * Output (job rank 0, stdout): one table per collective and condition, and
 * with --csv FILE one line per measurement.  Exit status 0 when every check
 * passed and every call ran the algorithm asked for, 1 otherwise.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vine.h>

#define MAX_ALGOS 4
#define TAG_CMD 7001
#define TAG_ACK 7002
#define TAG_BG 7003
#define TAG_PROBE 7004

enum { CMD_START = 1, CMD_STOP = 2, CMD_QUIT = 3 };

struct options {
    int job;                 /* ranks of the measured job */
    int root;                /* root of the collectives, a job rank */
    const char *colls;       /* "gather,scatter" */
    const char *conds;       /* "quiet,busy" */
    char *algos[MAX_ALGOS];  /* the first one is the baseline */
    int optional[MAX_ALGOS]; /* given as NAME?: left out when vine lacks it */
    int nalgos;
    long max_bytes;    /* largest block per rank */
    int iters;         /* timed calls per size and algorithm, quiet network */
    int busy_iters;    /* the same with the background job running */
    long bg_bytes;     /* per pair and alltoall of the background */
    const char *csv;   /* NULL: no CSV file */
    const char *probe; /* NULL: no ping-pong probe */
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gather_exp [--job N] [--root R] [--colls gather,scatter]\n"
            "         [--conds quiet,busy] [--algos binomial,leader,leader_bine?] [--max-bytes B]\n"
            "         [--iters N] [--busy-iters N] [--bg-bytes B]\n"
            "         [--csv FILE] [--probe R1,R2,...]\n");
}

static long parse_bytes(const char *s, int *ok)
{
    char *end = NULL;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0) {
        *ok = 0;
        return 0;
    }
    if (*end == 'k' || *end == 'K') {
        v <<= 10;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v <<= 20;
        end++;
    }
    if (*end == 'i' && (end[1] == 'B' || end[1] == 'b'))
        end += 2;
    else if (*end == 'B' || *end == 'b')
        end++;
    if (*end != '\0')
        *ok = 0;
    return v;
}

/* Returns 0 on success, 1 (with a message from world rank 0) on bad options. */
static int parse_options(int argc, char **argv, struct options *o, int wrank)
{
    static char algos_default[] = "binomial,leader,leader_bine?";
    char *algos = algos_default;
    int ok = 1;
    o->job = 296;
    o->root = 0;
    o->colls = "gather,scatter";
    o->conds = "quiet,busy";
    o->max_bytes = 1L << 20;
    o->iters = 1;
    o->busy_iters = 2;
    o->bg_bytes = 4L << 20;
    o->csv = NULL;
    o->probe = NULL;
    for (int i = 1; i < argc && ok; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            if (wrank == 0)
                usage(stdout);
            return 2;
        }
        if (v == NULL) {
            ok = 0;
            break;
        }
        i++;
        if (strcmp(a, "--job") == 0)
            o->job = atoi(v);
        else if (strcmp(a, "--root") == 0)
            o->root = atoi(v);
        else if (strcmp(a, "--colls") == 0)
            o->colls = v;
        else if (strcmp(a, "--conds") == 0)
            o->conds = v;
        else if (strcmp(a, "--algos") == 0)
            algos = argv[i];
        else if (strcmp(a, "--max-bytes") == 0)
            o->max_bytes = parse_bytes(v, &ok);
        else if (strcmp(a, "--iters") == 0)
            o->iters = atoi(v);
        else if (strcmp(a, "--busy-iters") == 0)
            o->busy_iters = atoi(v);
        else if (strcmp(a, "--bg-bytes") == 0)
            o->bg_bytes = parse_bytes(v, &ok);
        else if (strcmp(a, "--csv") == 0)
            o->csv = v;
        else if (strcmp(a, "--probe") == 0)
            o->probe = v;
        else
            ok = 0;
    }
    /* Split the algorithm list in place (argv strings are writable). */
    o->nalgos = 0;
    for (char *s = algos; ok && s != NULL && *s != '\0';) {
        char *comma = strchr(s, ',');
        if (comma != NULL)
            *comma = '\0';
        if (o->nalgos == MAX_ALGOS)
            ok = 0;
        else {
            size_t len = strlen(s);
            o->optional[o->nalgos] = len > 0 && s[len - 1] == '?';
            if (o->optional[o->nalgos])
                s[len - 1] = '\0';
            o->algos[o->nalgos++] = s;
        }
        s = comma != NULL ? comma + 1 : NULL;
    }
    if (o->nalgos < 1 || o->iters < 1 || o->busy_iters < 1 || o->job < 1 || o->root < 0 ||
        o->root >= o->job || o->max_bytes > (1L << 30) || o->bg_bytes < 1 ||
        o->bg_bytes > (16L << 20))
        ok = 0;
    if (!ok) {
        if (wrank == 0)
            usage(stderr);
        return 1;
    }
    return 0;
}

/* Whether the comma-separated list holds word. */
static int in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *s = list; s != NULL && *s != '\0';) {
        const char *comma = strchr(s, ',');
        size_t len = comma != NULL ? (size_t)(comma - s) : strlen(s);
        if (len == n && strncmp(s, word, n) == 0)
            return 1;
        s = comma != NULL ? comma + 1 : NULL;
    }
    return 0;
}

static void *alloc_bytes(size_t n)
{
    return malloc(n > 0 ? n : 1);
}

/* Buffers whose content nobody reads: SMPI's shared malloc (no memory, and
 * SMPI skips copying their data), plain malloc elsewhere. */
static void *alloc_dummy(size_t n)
{
#ifdef SMPI_SHARED_MALLOC
    return SMPI_SHARED_MALLOC(n > 0 ? n : 1);
#else
    return calloc(n > 0 ? n : 1, 1);
#endif
}

static void free_dummy(void *p)
{
#ifdef SMPI_SHARED_FREE
    SMPI_SHARED_FREE(p);
#else
    free(p);
#endif
}

/* ---- the background job --------------------------------------------------- */

/*
 * The background's alltoall: ranks 0 .. h-1 of the background are on one
 * switch, h .. 2h-1 on the other; step s (0 .. h-1) pairs rank i < h with
 * h + (i + s) mod h, and each pair exchanges `bytes` both ways.
 */
struct bg_plan {
    int brank, h;
    long bytes;
    char *sbuf, *rbuf;
};

static void bg_plan_make(struct bg_plan *pl, long bytes, MPI_Comm bg)
{
    int bsize;
    MPI_Comm_rank(bg, &pl->brank);
    MPI_Comm_size(bg, &bsize);
    pl->h = bsize / 2;
    pl->bytes = bytes;
    pl->sbuf = alloc_dummy((size_t)bytes);
    pl->rbuf = alloc_dummy((size_t)bytes);
}

static void bg_plan_free(struct bg_plan *pl)
{
    free_dummy(pl->sbuf);
    free_dummy(pl->rbuf);
}

/* One inter-switch alltoall of the background, one peer a step. */
static void bg_alltoall(const struct bg_plan *pl, MPI_Comm bg)
{
    int h = pl->h, side = pl->brank < h ? 0 : 1;
    int k = side == 0 ? pl->brank : pl->brank - h;
    int count = (int)pl->bytes;
    for (int s = 0; s < h; s++) {
        int peer = side == 0 ? h + (k + s) % h : (k - s + h) % h;
        MPI_Sendrecv(pl->sbuf, count, MPI_BYTE, peer, TAG_BG, pl->rbuf, count, MPI_BYTE, peer,
                     TAG_BG, bg, MPI_STATUS_IGNORE);
    }
}

/* The background job's life: wait for a command, run until stopped, repeat. */
static void background(struct bg_plan *plan, MPI_Comm bg)
{
    struct bg_plan pl = *plan;
    const int job_root = 0; /* world rank 0 commands the background */
    for (;;) {
        int cmd = CMD_QUIT;
        if (pl.brank == 0)
            MPI_Recv(&cmd, 1, MPI_INT, job_root, TAG_CMD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Bcast(&cmd, 1, MPI_INT, 0, bg);
        if (cmd != CMD_START)
            break;
        long loops = 0;
        for (;;) {
            int stop = 0;
            if (pl.brank == 0) {
                int flag = 0;
                MPI_Iprobe(job_root, TAG_CMD, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
                if (flag) {
                    int c;
                    MPI_Recv(&c, 1, MPI_INT, job_root, TAG_CMD, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    stop = 1;
                }
            }
            MPI_Bcast(&stop, 1, MPI_INT, 0, bg);
            if (stop)
                break;
            bg_alltoall(&pl, bg);
            loops++;
        }
        if (pl.brank == 0)
            MPI_Send(&loops, 1, MPI_LONG, job_root, TAG_ACK, MPI_COMM_WORLD);
    }
    bg_plan_free(&pl);
}

/* Job side: command the background (world rank 0 only). */
static void bg_command(int have_bg, int bg_world0, int cmd, long *loops)
{
    if (!have_bg)
        return;
    MPI_Send(&cmd, 1, MPI_INT, bg_world0, TAG_CMD, MPI_COMM_WORLD);
    if (cmd == CMD_STOP) {
        long n = 0;
        MPI_Recv(&n, 1, MPI_LONG, bg_world0, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (loops != NULL)
            *loops = n;
    }
}

/* ---- the measured job ------------------------------------------------------ */

static unsigned char pattern(int rank, size_t i, size_t size)
{
    return (unsigned char)((unsigned)rank * 131u + (unsigned)i * 7u + (unsigned)size * 3u + 1u);
}

struct bufs {
    unsigned char *small; /* size bytes: send block (gather) or receive block (scatter) */
    unsigned char *big;   /* p * size bytes at the root, NULL elsewhere */
};

static int call_coll(int is_gather, struct bufs *b, size_t size, int root, MPI_Comm comm)
{
    int n = (int)size;
    if (is_gather)
        return vine_gather(b->small, n, MPI_BYTE, b->big, n, MPI_BYTE, root, comm);
    return vine_scatter(b->big, n, MPI_BYTE, b->small, n, MPI_BYTE, root, comm);
}

/* Fills the inputs of a checked call: the root's blocks or every send block. */
static void fill_inputs(int is_gather, struct bufs *b, size_t size, int rank, int p, int root)
{
    if (is_gather) {
        for (size_t i = 0; i < size; i++)
            b->small[i] = pattern(rank, i, size);
        if (rank == root)
            memset(b->big, 0, (size_t)p * size);
    } else {
        if (rank == root)
            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < size; i++)
                    b->big[(size_t)r * size + i] = pattern(r, i, size);
        memset(b->small, 0, size);
    }
}

/* The wrong bytes of this process's output after a checked call. */
static long count_wrong(int is_gather, const struct bufs *b, size_t size, int rank, int p, int root)
{
    long bad = 0;
    if (is_gather) {
        if (rank == root)
            for (int r = 0; r < p; r++)
                for (size_t i = 0; i < size; i++)
                    bad += b->big[(size_t)r * size + i] != pattern(r, i, size);
    } else {
        for (size_t i = 0; i < size; i++)
            bad += b->small[i] != pattern(rank, i, size);
    }
    return bad;
}

struct result {
    double avg_us, max_us;
    long bad;
    int fallback; /* the call ran another algorithm than the one asked for */
};

/*
 * One size and algorithm: --iters calls, each after a barrier of the job,
 * timed on every process; the first one is also checked (the buffers are
 * filled before the barrier and compared after the call, which costs no
 * simulated time since computation is not simulated).  SimGrid is
 * deterministic, so on a quiet network every call takes the same time and
 * one call is enough; with the background job each call meets it in another
 * phase.
 */
static void measure(const struct options *o, int is_gather, int iters, const char *algo,
                    size_t size, struct bufs *b, int rank, int p, MPI_Comm comm, struct result *res)
{
    vine_coll coll = is_gather ? VINE_COLL_GATHER : VINE_COLL_SCATTER;
    vine_set_algorithm(coll, algo);
    long bad = 0;
    int fell = 0, failed = 0;
    double t = 0.0;
    for (int it = 0; it < iters; it++) {
        if (it == 0)
            fill_inputs(is_gather, b, size, rank, p, o->root);
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        int rc = call_coll(is_gather, b, size, o->root, comm);
        t += MPI_Wtime() - t0;
        if (rc != MPI_SUCCESS) {
            if (!failed)
                fprintf(stderr, "gather_exp: rank %d: %s %s %zu B: %s\n", rank,
                        vine_coll_name(coll), algo, size, vine_error_string(rc));
            failed = 1;
        }
        /* A call of 0 bytes moves nothing and runs no algorithm ("none"). */
        if (size > 0 && strcmp(vine_last_algorithm(coll), algo) != 0)
            fell = 1;
        if (it == 0 && rc == MPI_SUCCESS)
            bad = count_wrong(is_gather, b, size, rank, p, o->root);
    }
    bad += failed;
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, comm);
    MPI_Allreduce(MPI_IN_PLACE, &fell, 1, MPI_INT, MPI_MAX, comm);
    double mine = t / iters, sum = 0.0, max = 0.0;
    MPI_Reduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
    MPI_Reduce(&mine, &max, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
    res->avg_us = sum / p * 1e6;
    res->max_us = max * 1e6;
    res->bad = bad;
    res->fallback = fell;
}

static void size_label(size_t size, char *out, size_t n)
{
    if (size >= (1u << 20) && size % (1u << 20) == 0)
        snprintf(out, n, "%zuMiB", size >> 20);
    else if (size >= 1024 && size % 1024 == 0)
        snprintf(out, n, "%zuKiB", size >> 10);
    else
        snprintf(out, n, "%zuB", size);
}

static void print_header(const struct options *o)
{
    printf("%8s", "size");
    for (int m = 0; m < 2; m++) {
        for (int a = 0; a < o->nalgos; a++) {
            char h[64];
            snprintf(h, sizeof h, "%s%s", o->algos[a], m == 0 ? "" : "_avg");
            printf(" %13s", h);
        }
        for (int a = 1; a < o->nalgos; a++) {
            char h[64];
            snprintf(h, sizeof h, "%s%%%s", o->algos[a], m == 0 ? "" : "_avg");
            printf(" %*s", m == 0 ? 12 : 16, h);
        }
    }
    printf("  check\n");
}

/* One row of a table (m = 0: completion time, 1: average); returns 1 when a
 * result was wrong or an algorithm was not the one asked for. */
static int print_row(const struct options *o, size_t size, const struct result *r)
{
    char lab[32];
    size_label(size, lab, sizeof lab);
    printf("%8s", lab);
    for (int m = 0; m < 2; m++) {
        for (int a = 0; a < o->nalgos; a++)
            printf(" %13.2f", m == 0 ? r[a].max_us : r[a].avg_us);
        for (int a = 1; a < o->nalgos; a++) {
            double base = m == 0 ? r[0].max_us : r[0].avg_us;
            double t = m == 0 ? r[a].max_us : r[a].avg_us;
            printf(" %*.1f", m == 0 ? 12 : 16, base > 0.0 ? 100.0 * (base - t) / base : 0.0);
        }
    }
    const char *verdict = "ok";
    for (int a = 0; a < o->nalgos; a++) {
        if (r[a].bad != 0)
            verdict = "WRONG";
        else if (r[a].fallback && strcmp(verdict, "ok") == 0)
            verdict = "FALLBACK";
    }
    printf("  %s\n", verdict);
    return strcmp(verdict, "ok") != 0;
}

/* Ping-pong between job rank 0 and each rank of the list. */
static void probe(const struct options *o, int rank, int p, MPI_Comm comm)
{
    const size_t big = 1u << 20;
    char *buf = alloc_dummy(big);
    char name[MPI_MAX_PROCESSOR_NAME];
    char *names = rank == 0 ? malloc((size_t)p * MPI_MAX_PROCESSOR_NAME) : NULL;
    int len = 0;
    memset(name, 0, sizeof name);
    MPI_Get_processor_name(name, &len);
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
               comm);
    if (rank == 0)
        printf("# ping-pong from job rank 0 (%s): one-way time\n"
               "%6s  %-8s %10s %14s\n",
               name, "rank", "host", "0B_us", "1MiB_GB/s");
    for (const char *s = o->probe; s != NULL && *s != '\0';) {
        int peer = atoi(s);
        const char *comma = strchr(s, ',');
        s = comma != NULL ? comma + 1 : NULL;
        if (peer <= 0 || peer >= p)
            continue;
        double lat = 0.0, bw = 0.0;
        for (int k = 0; k < 2; k++) {
            size_t n = k == 0 ? 0 : big;
            const int reps = 4;
            MPI_Barrier(comm);
            double t0 = MPI_Wtime();
            for (int r = 0; r < reps; r++) {
                if (rank == 0) {
                    MPI_Send(buf, (int)n, MPI_BYTE, peer, TAG_PROBE, comm);
                    MPI_Recv(buf, (int)n, MPI_BYTE, peer, TAG_PROBE, comm, MPI_STATUS_IGNORE);
                } else if (rank == peer) {
                    MPI_Recv(buf, (int)n, MPI_BYTE, 0, TAG_PROBE, comm, MPI_STATUS_IGNORE);
                    MPI_Send(buf, (int)n, MPI_BYTE, 0, TAG_PROBE, comm);
                }
            }
            double one_way = (MPI_Wtime() - t0) / (2.0 * reps);
            if (k == 0)
                lat = one_way * 1e6;
            else
                bw = (double)big / one_way / 1e9;
        }
        if (rank == 0)
            printf("%6d  %-8s %10.2f %14.2f\n", peer, names + (size_t)peer * MPI_MAX_PROCESSOR_NAME,
                   lat, bw);
    }
    if (rank == 0) {
        printf("\n");
        fflush(stdout);
    }
    free(names);
    free_dummy(buf);
}

/* Runs every measurement of the job; returns the number of failures. */
static int job_main(struct options *o, MPI_Comm comm, int have_bg, int bg_world0, FILE *csv)
{
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    int failures = 0;

    /* Every algorithm must exist in both collectives asked for; an optional
     * one (NAME?) that does not is left out (the answer is the same on every
     * rank, so the list stays the same everywhere). */
    int kept = 0;
    for (int a = 0; a < o->nalgos; a++) {
        const char *cn[2] = {"gather", "scatter"};
        const vine_coll cc[2] = {VINE_COLL_GATHER, VINE_COLL_SCATTER};
        int missing = 0;
        for (int c = 0; c < 2; c++)
            if (in_list(o->colls, cn[c]) && vine_set_algorithm(cc[c], o->algos[a]) != MPI_SUCCESS) {
                if (rank == 0 && !o->optional[a])
                    fprintf(stderr,
                            "gather_exp: vine has no %s algorithm '%s' (vine list --coll %s)\n",
                            cn[c], o->algos[a], cn[c]);
                missing = 1;
            }
        if (missing && o->optional[a]) {
            if (rank == 0)
                printf("# %s: not in this vine, left out\n", o->algos[a]);
            continue;
        }
        failures += missing;
        o->algos[kept++] = o->algos[a];
    }
    o->nalgos = kept;
    if (failures > 0 || kept < 2) {
        if (rank == 0 && failures == 0)
            fprintf(stderr, "gather_exp: fewer than two algorithms to compare\n");
        return failures > 0 ? failures : 1;
    }

    /* The first vine call on comm discovers its levels (collective). */
    int nlevels = 0;
    char info[512];
    int trc = vine_topology_info(comm, &nlevels, info, (int)sizeof info);
    if (rank == 0)
        printf("# vine_topology_info: %d level(s): %s\n", nlevels, info);
    fflush(stdout);
    if (trc != MPI_SUCCESS || nlevels < 1) {
        if (rank == 0)
            fprintf(stderr,
                    "gather_exp: no usable levels (%s): the topology-aware algorithms "
                    "cannot run\n",
                    trc != MPI_SUCCESS ? vine_error_string(trc) : info);
        return 1;
    }

    if (o->probe != NULL)
        probe(o, rank, p, comm);

    int nsizes = 1;
    for (long s = 1; s <= o->max_bytes; s <<= 1)
        nsizes++;
    struct bufs b;
    b.small = alloc_bytes((size_t)o->max_bytes);
    b.big = rank == o->root ? alloc_bytes((size_t)p * (size_t)o->max_bytes) : NULL;
    struct result *res = calloc((size_t)nsizes * MAX_ALGOS, sizeof(*res));
    if (b.small == NULL || (rank == o->root && b.big == NULL) || res == NULL) {
        fprintf(stderr, "gather_exp: rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (int c = 0; c < 2; c++) {
        int is_gather = c == 0;
        const char *cname = is_gather ? "gather" : "scatter";
        if (!in_list(o->colls, cname))
            continue;
        for (int q = 0; q < 2; q++) {
            const char *cond = q == 0 ? "quiet" : "busy";
            if (!in_list(o->conds, cond))
                continue;
            if (q == 1 && !have_bg) {
                if (rank == 0)
                    printf("# %s, busy: no background job (MPI_COMM_WORLD has only the job)\n\n",
                           cname);
                continue;
            }
            if (q == 1 && rank == 0)
                bg_command(have_bg, bg_world0, CMD_START, NULL);
            double t_start = MPI_Wtime();
            for (int si = 0; si < nsizes; si++) {
                size_t size = si == 0 ? 0 : (size_t)1 << (si - 1);
                for (int a = 0; a < o->nalgos; a++)
                    measure(o, is_gather, q == 0 ? o->iters : o->busy_iters, o->algos[a], size, &b,
                            rank, p, comm, &res[si * MAX_ALGOS + a]);
            }
            double t_sim = MPI_Wtime() - t_start;
            long loops = 0;
            if (q == 1 && rank == 0)
                bg_command(have_bg, bg_world0, CMD_STOP, &loops);
            MPI_Barrier(comm);
            if (rank != 0)
                continue;
            printf("# %s, %s network: %d processes, root %d, %d call(s) per size and algorithm",
                   cname, cond, p, o->root, q == 0 ? o->iters : o->busy_iters);
            if (q == 1)
                printf("; background: %ld alltoall(s) of %ld B per pair", loops, o->bg_bytes);
            printf("\n# ALGO: completion time in us (the slowest process: the root of a gather, "
                   "the last receiver of a scatter); ALGO_avg: time per process averaged over "
                   "the processes (the paper's measure); ALGO%%: its improvement over the first, "
                   "(first - ALGO) / first\n");
            print_header(o);
            for (int si = 0; si < nsizes; si++) {
                size_t size = si == 0 ? 0 : (size_t)1 << (si - 1);
                struct result *r = &res[si * MAX_ALGOS];
                failures += print_row(o, size, r);
                for (int a = 0; a < o->nalgos && csv != NULL; a++)
                    fprintf(csv, "%s,%s,%zu,%s,%.3f,%.3f,%d,%ld,%d\n", cname, cond, size,
                            o->algos[a], r[a].max_us, r[a].avg_us,
                            q == 0 ? o->iters : o->busy_iters, r[a].bad, r[a].fallback);
            }
            printf("# simulated time of this table: %.3f s\n\n", t_sim);
            fflush(stdout);
        }
    }
    free(res);
    free(b.small);
    free(b.big);
    return failures;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    struct options o;
    int perr = parse_options(argc, argv, &o, wrank);
    if (perr == 0 && o.job > wsize) {
        if (wrank == 0)
            fprintf(stderr, "gather_exp: --job %d but only %d ranks\n", o.job, wsize);
        perr = 1;
    }
    if (perr != 0) {
        MPI_Finalize();
        return perr == 2 ? 0 : 1;
    }
    int in_job = wrank < o.job;
    int have_bg = wsize > o.job;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, in_job ? 0 : 1, wrank, &comm);
    int failures = 0;
    if (in_job) {
        FILE *csv = NULL;
        if (wrank == 0 && o.csv != NULL) {
            csv = fopen(o.csv, "w");
            if (csv == NULL)
                fprintf(stderr, "gather_exp: cannot write %s\n", o.csv);
            else
                fprintf(csv,
                        "coll,cond,size,algo,completion_us,avg_us,iters,wrong_bytes,fallback\n");
        }
        MPI_Barrier(MPI_COMM_WORLD);
        failures = job_main(&o, comm, have_bg, o.job, csv);
        if (wrank == 0)
            bg_command(have_bg, o.job, CMD_QUIT, NULL);
        if (csv != NULL)
            fclose(csv);
        if (wrank == 0)
            printf("gather_exp: %s\n", failures == 0 ? "all checks passed" : "FAILED");
    } else {
        /* The background is ready before the job starts. */
        struct bg_plan pl;
        bg_plan_make(&pl, o.bg_bytes, comm);
        MPI_Barrier(MPI_COMM_WORLD);
        background(&pl, comm);
    }
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return failures == 0 ? 0 : 1;
}
