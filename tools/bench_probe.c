/*
 * vine-bench probe: measures the parameters of the auto selector's
 * multi-level cost model (src/select/cost.h, docs/selection.md) on
 * MPI_COMM_WORLD and writes them as a VINE_COST_FILE.
 *
 *   vine-bench probe [--out FILE] [--bytes N] [--iters N]
 *
 * It discovers the levels of the communicator (vine__levels_discover:
 * VINE_TOPOLOGY, and the test-only VINE_TOPOLOGY_FAKE_HOSTS), and for each
 * message class c (0: inside a node, ..., nlevels: between top groups) picks
 * the leaders of the first two level c-1 groups that share a level c group.
 * That pair ping-pongs 0 bytes (alpha_c: half the round trip), 1 KiB, 4 KiB,
 * ... below N, and N bytes (beta_c: the rest of the one-way time per byte)
 * while every other rank waits.  When the latency left at N after the slope
 * of the two largest sizes exceeds 1.5 alpha_c, the excess is the class's
 * large-message (rendezvous) term, charged from the first size that shows
 * half of it, and beta_c is that slope (vine__cost_fit_pair).  Then every
 * class c pair that can be formed at once (member j of subgroup 2i with
 * member j of subgroup 2i+1, in every level c group) runs the N-byte
 * ping-pong together; the slowest pair's per-byte time over the single
 * pair's is the contention factor, measured with as many messages between
 * two groups as the largest pair of groups sent (contention_flows, written
 * when the factor is above 1).  gamma is the time per byte of
 * MPI_Reduce_local summing doubles.  A class with no pair keeps the
 * built-in parameters, and one whose pairs never share a group's way out
 * keeps the built-in contention; the table and the file's notes say so.
 * Rank 0 prints the table and writes the file.
 */
#include "bench_probe.h"

#include "api/levels_mpi.h"
#include "bench/stats.h"
#include "select/cost.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE_MAX 160

typedef struct probe_opts {
    const char *out;
    size_t bytes;
    int iters;
} probe_opts;

/* The sizes below N that the single pair also ping-pongs: 1 KiB, 4 KiB, ... */
#define GRID_FIRST 1024
#define GRID_MAX 16

/* What was measured for one class. */
typedef struct probe_class {
    int a, b;            /* the single pair; a = -1: none */
    int pairs;           /* pairs that ran at once */
    int contended;       /* some group sent more than one of them */
    int flows;           /* the most of them between one pair of groups */
    double t0, tn, tall; /* one-way seconds: 0 bytes, N bytes, N bytes all pairs at once */
    int ngrid;           /* sizes of the grid below N, then N itself */
    double size[GRID_MAX], t[GRID_MAX]; /* the single pair's one-way times at those sizes */
    char note[NOTE_MAX];
} probe_class;

static void usage(FILE *f)
{
    fprintf(f, "usage: vine-bench probe [--out FILE] [--bytes N] [--iters N]\n"
               "  --out FILE  the cost-model file to write (default vine-cost.json)\n"
               "  --bytes N   the large message, with an optional unit (B, KiB, MiB;\n"
               "              default 1MiB)\n"
               "  --iters N   round trips per measurement (default 20)\n"
               "Measures alpha, beta and the contention factor of every level of\n"
               "MPI_COMM_WORLD (VINE_TOPOLOGY) for the auto selector's cost model;\n"
               "point VINE_COST_FILE at the file (docs/selection.md).\n");
}

static int bad_usage(int rank, const char *what, const char *arg)
{
    if (rank == 0) {
        fprintf(stderr, "vine-bench probe: %s%s\n", what, arg ? arg : "");
        usage(stderr);
    }
    return 2;
}

/* Parses the options; returns 0, 1 after --help, or 2 for a usage error. */
static int parse(probe_opts *o, int argc, char **argv, int rank)
{
    o->out = "vine-cost.json";
    o->bytes = 1 << 20;
    o->iters = 20;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            if (rank == 0)
                usage(stdout);
            return 1;
        }
        if (i + 1 >= argc)
            return bad_usage(rank, "a value is missing after ", argv[i]);
        const char *v = argv[++i];
        if (strcmp(argv[i - 1], "--out") == 0)
            o->out = v;
        else if (strcmp(argv[i - 1], "--bytes") == 0) {
            if (vine__bench_parse_size(v, INT_MAX, &o->bytes) || o->bytes == 0)
                return bad_usage(rank, "bad --bytes ", v);
        } else if (strcmp(argv[i - 1], "--iters") == 0) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > 1000000)
                return bad_usage(rank, "bad --iters ", v);
            o->iters = (int)n;
        } else
            return bad_usage(rank, "unknown option ", argv[i - 1]);
    }
    return 0;
}

/*
 * Ping-pongs bytes with peer (none: peer < 0) for iters round trips after
 * two untimed ones; the initiator sends first.  Returns the mean one-way
 * time, 0 for a rank without a peer.
 */
static double pingpong(int peer, int initiator, char *buf, size_t bytes, int iters)
{
    if (peer < 0)
        return 0;
    double t0 = 0;
    for (int i = -2; i < iters; i++) {
        if (i == 0)
            t0 = MPI_Wtime();
        if (initiator) {
            MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        }
    }
    return (MPI_Wtime() - t0) / (2.0 * iters);
}

/* The slowest rank's time of a ping-pong round, every rank taking part alike. */
static double timed_round(int peer, int initiator, char *buf, size_t bytes, int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double mine = pingpong(peer, initiator, buf, bytes, iters), worst = 0;
    MPI_Allreduce(&mine, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return worst;
}

/* The leaders of the first two level c-1 groups inside one level c group (a = -1: none). */
static void single_pair(const vine_levels *m, int c, probe_class *pc)
{
    pc->a = pc->b = -1;
    for (int g = 0; g < vine__levels_ngroups(m, c); g++) {
        int n;
        const int *sub = vine__levels_subgroups(m, c, g, &n);
        if (n >= 2) {
            pc->a = vine__levels_leader(m, c - 1, sub[0]);
            pc->b = vine__levels_leader(m, c - 1, sub[1]);
            return;
        }
    }
}

/*
 * This rank's partner among all class c pairs formed at once: member j of
 * subgroup 2i with member j of subgroup 2i+1, in every level c group; -1
 * when it has none.  Counts the pairs, notes whether some subgroup sends
 * more than one of them (only then can contention show) and the most that
 * go between one pair of subgroups.
 */
static int all_pairs(const vine_levels *m, int c, int rank, probe_class *pc)
{
    int partner = -1;
    pc->pairs = pc->contended = pc->flows = 0;
    for (int g = 0; g < vine__levels_ngroups(m, c); g++) {
        int n;
        const int *sub = vine__levels_subgroups(m, c, g, &n);
        for (int i = 0; i + 1 < n; i += 2) {
            int na, nb;
            const int *ma = vine__levels_members(m, c - 1, sub[i], &na);
            const int *mb = vine__levels_members(m, c - 1, sub[i + 1], &nb);
            for (int j = 0; j < na && j < nb; j++) {
                partner = ma[j] == rank ? mb[j] : mb[j] == rank ? ma[j] : partner;
                pc->pairs++;
                pc->contended |= j > 0;
                pc->flows = j + 1 > pc->flows ? j + 1 : pc->flows;
            }
        }
    }
    return partner;
}

/* Measures class c (collective: every rank calls it alike). */
static void probe_class_run(const vine_levels *m, int c, int rank, const probe_opts *o, char *buf,
                            probe_class *pc)
{
    single_pair(m, c, pc);
    if (pc->a < 0)
        return;
    int peer = rank == pc->a ? pc->b : rank == pc->b ? pc->a : -1;
    pc->t0 = timed_round(peer, rank == pc->a, buf, 0, o->iters);
    pc->ngrid = 0;
    for (size_t b = GRID_FIRST; b < o->bytes && pc->ngrid < GRID_MAX - 1; b *= 4) {
        pc->size[pc->ngrid] = (double)b;
        pc->t[pc->ngrid++] = timed_round(peer, rank == pc->a, buf, b, o->iters);
    }
    pc->tn = timed_round(peer, rank == pc->a, buf, o->bytes, o->iters);
    pc->size[pc->ngrid] = (double)o->bytes;
    pc->t[pc->ngrid++] = pc->tn;
    int partner = all_pairs(m, c, rank, pc);
    pc->tall = timed_round(partner, partner > rank, buf, o->bytes, o->iters);
}

/* The time per byte of summing doubles with MPI_Reduce_local. */
static double probe_gamma(char *buf, size_t bytes, int iters)
{
    size_t n = bytes / 2 / sizeof(double);
    if (n == 0)
        return -1;
    double *in = (double *)(void *)buf, *inout = in + n;
    for (size_t i = 0; i < 2 * n; i++)
        in[i] = 1.0;
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        MPI_Reduce_local(in, inout, (int)n, MPI_DOUBLE, MPI_SUM);
    return (MPI_Wtime() - t0) / iters / (double)(n * sizeof(double));
}

/* Turns class c's times into parameters (defaults where nothing was measured). */
static void fill_class(vine_cost *c, int cls, probe_class *pc, size_t bytes)
{
    vine_cost_level *lv = &c->cls[cls];
    if (pc->a < 0) {
        snprintf(pc->note, NOTE_MAX, "no pair of ranks of this class: built-in parameters");
        return;
    }
    vine__cost_fit_pair(lv, pc->t0, pc->size, pc->t, pc->ngrid);
    double start = vine__cost_latency(lv, (double)bytes);
    double per_byte = pc->tn - start, all_byte = pc->tall - start;
    if (pc->contended && per_byte > 0) {
        lv->contention = all_byte > per_byte ? all_byte / per_byte : 1.0;
        /* No slowdown with flows messages says only that the links take that many. */
        lv->contention_flows = lv->contention > 1.0 ? pc->flows : 0;
    }
    char rndv[64] = "";
    if (lv->rndv_alpha > 0)
        snprintf(rndv, sizeof rndv, "; from %.0f bytes %.3f us more", lv->rndv_bytes,
                 lv->rndv_alpha * 1e6);
    char flows[64] = ", never two from one group: built-in contention";
    if (pc->contended)
        snprintf(flows, sizeof flows, ", up to %d between two groups", pc->flows);
    snprintf(pc->note, NOTE_MAX, "ranks %d and %d; %d pairs at once%s%s", pc->a, pc->b, pc->pairs,
             flows, rndv);
}

static void print_table(const vine_cost *c, const probe_class *pc, int nclasses,
                        const probe_opts *o, const char *levels_msg)
{
    printf("# vine-bench probe: %s\n", levels_msg);
    printf("# %zu-byte messages, %d round trips each; written to %s\n", o->bytes, o->iters, o->out);
    printf("%-5s %10s %10s %9s %10s  %s\n", "class", "alpha_us", "beta_ns/B", "GB/s", "contention",
           "note");
    for (int i = 0; i < nclasses; i++) {
        const vine_cost_level *lv = &c->cls[i];
        printf("%-5d %10.3f %10.4f %9.3f %10.2f  %s\n", i, lv->alpha * 1e6, lv->beta * 1e9,
               lv->beta > 0 ? 1e-9 / lv->beta : 0.0, lv->contention, pc[i].note);
    }
    printf("gamma_ns/B %.4f\n", c->gamma * 1e9);
}

/* Measures every class and gamma into *c (collective). */
static void measure(const vine_levels *m, int rank, const probe_opts *o, char *buf, vine_cost *c,
                    probe_class *pc)
{
    vine__cost_defaults(c);
    c->nclasses = m->nlevels + 1;
    for (int i = 0; i < c->nclasses; i++) {
        memset(&pc[i], 0, sizeof pc[i]);
        probe_class_run(m, i, rank, o, buf, &pc[i]);
        fill_class(c, i, &pc[i], o->bytes);
    }
    double g = probe_gamma(buf, o->bytes, o->iters);
    MPI_Bcast(&g, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (g > 0)
        c->gamma = g;
}

/* Writes the file and the table on rank 0; returns the exit status, the same on every rank. */
static int report(const vine_cost *c, const probe_class *pc, int rank, const probe_opts *o,
                  const char *levels_msg)
{
    int status = 0;
    if (rank == 0) {
        const char *notes[VINE_COST_CLASSES];
        for (int i = 0; i < c->nclasses; i++)
            notes[i] = pc[i].note;
        char err[512];
        if (vine__cost_save(c, o->out, "vine-bench probe", notes, err, sizeof err) != VINE_OK) {
            fprintf(stderr, "vine-bench probe: %s\n", err);
            status = 1;
        } else {
            print_table(c, pc, c->nclasses, o, levels_msg);
        }
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return status;
}

int bench_probe_main(int argc, char **argv)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    probe_opts o;
    int rc = parse(&o, argc, argv, rank);
    if (rc)
        return rc == 1 ? 0 : rc;
    vine_levels m;
    char msg[1024] = "";
    if (vine__levels_discover(MPI_COMM_WORLD, &m, msg, sizeof msg) != MPI_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "vine-bench probe: levels: %s\n", msg);
        return 1;
    }
    char *buf = malloc(o.bytes);
    int ok = buf != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
        if (rank == 0)
            fprintf(stderr, "vine-bench probe: no memory for %zu bytes\n", o.bytes);
        free(buf);
        vine__levels_free(&m);
        return 1;
    }
    memset(buf, 0, o.bytes);
    vine_cost c;
    probe_class pc[VINE_COST_CLASSES];
    measure(&m, rank, &o, buf, &c, pc);
    int status = report(&c, pc, rank, &o, msg);
    free(buf);
    vine__levels_free(&m);
    return status;
}
