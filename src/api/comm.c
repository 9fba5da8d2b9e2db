/*
 * Per-communicator state, attached to the user's communicator as an
 * attribute: vine's private communicator, the schedule cache and the
 * executor's scratch.  The attribute's delete callback frees it all when the
 * user frees the communicator; a second attribute on MPI_COMM_SELF frees
 * whatever is left when MPI_Finalize runs (none under the MPI 4 sessions
 * model alone, which has no MPI_COMM_SELF: hook_finalize).
 */
#include "api.h"
#include "levels_hwloc.h"
#include "levels_mpi.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Made once, under vine__lock; read by every thread. */
static atomic_int state_keyval = MPI_KEYVAL_INVALID;
static int final_keyval = MPI_KEYVAL_INVALID;
/* Marks a communicator without a state that has had requests (vine__comm_mark_early). */
static int early_keyval = MPI_KEYVAL_INVALID;
/* Whether MPI_COMM_SELF carries final_keyval (set under vine__lock). */
static atomic_int final_hooked;
/* Every live state, so that finalisation can release them all (under vine__lock). */
static vine_comm_state *all_states;
/*
 * The state of the communicator used last, which saves an attribute lookup
 * per call.  It cannot go stale: freeing a communicator runs the attribute's
 * delete callback, and state_free() forgets it there.  Under
 * MPI_THREAD_MULTIPLE it stays NULL: another thread may free the
 * communicator it names.
 */
vine_comm_state *vine__last_state;

/* Whether MPI calls are still allowed (false while SMPI finalises, see final_delete). */
static int mpi_usable(void)
{
    int done = 1;
    return MPI_Finalized(&done) == MPI_SUCCESS && !done;
}

int vine__world_up(void)
{
    int up = 0;
    return MPI_Initialized(&up) == MPI_SUCCESS && up && mpi_usable();
}

int vine__world_speaker(void)
{
    int w = 0;
    if (!vine__world_up())
        return 1;
    return PMPI_Comm_rank(MPI_COMM_WORLD, &w) == MPI_SUCCESS && w == 0;
}

static void state_free(vine_comm_state *st)
{
    if (vine__last_state == st)
        vine__last_state = NULL;
    vine__lock();
    if (st->prev)
        st->prev->next = st->next;
    else
        all_states = st->next;
    if (st->next)
        st->next->prev = st->prev;
    vine__unlock();
    vine__cache_clear(st);
    vine__exec_scratch_free(&st->scr);
    for (int i = 0; i < VINE_PACK_COUNT; i++)
        free(st->pack[i]);
    vine__levels_free(&st->levels);
    vine__levels_free(&st->levels_full);
    vine__shm_free(st, mpi_usable());
    vine__shm_own_drop(st);
    if (st->comm != MPI_COMM_NULL && mpi_usable())
        MPI_Comm_free(&st->comm);
    if (st->pcomm != MPI_COMM_NULL && mpi_usable())
        MPI_Comm_free(&st->pcomm);
    free(st->counts);
    free(st->displs);
    free(st);
}

static int state_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    vine_comm_state *st = attr;
    if (st->nreqs > 0)
        vine__nb_drain_comm(st);
    /* Collective on every rank, whether it still has requests or not. */
    vine__shm_own_release(st);
    if (st->nreqs > 0) {
        /* Requests point at it.  MPI lets pending operations complete after
         * MPI_Comm_free, and persistent requests start again: the running
         * ones finish here, where every rank is (MPI_Comm_free is
         * collective), and so does the collective free of the node segment.
         * The private communicators stay for the persistent requests, and go
         * with the last request (MPI_Comm_free there does not wait for the
         * other ranks in Open MPI, MPICH or SimGrid), and so do the own
         * segments of persistent requests that some rank still holds. */
        vine__shm_free(st, mpi_usable());
        st->orphan = 1;
        if (vine__last_state == st)
            vine__last_state = NULL;
        return MPI_SUCCESS;
    }
    state_free(st);
    return MPI_SUCCESS;
}

void vine__comm_release(vine_comm_state *st)
{
    if (--st->nreqs == 0 && st->orphan)
        state_free(st);
}

/* Runs inside MPI_Finalize (MPI_COMM_SELF's attributes go first). */
static int final_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)attr;
    (void)extra;
    /* SimGrid's SMPI runs this callback after it has marked MPI finalised and
     * then rejects every MPI call: the process is about to end, so leave the
     * states (and the attributes that point at them) alone. */
    if (!mpi_usable())
        return MPI_SUCCESS;
    vine__nb_finalize();
    while (all_states) {
        vine_comm_state *st = all_states;
        /* An orphan's communicator is gone; requests left on it at
         * MPI_Finalize are the program's error, and go with the process. */
        if (st->orphan || MPI_Comm_delete_attr(st->user, state_keyval) != MPI_SUCCESS ||
            all_states == st) {
            st->nreqs = 0;
            if (all_states == st)
                state_free(st);
        }
    }
    int k = atomic_exchange(&state_keyval, MPI_KEYVAL_INVALID);
    MPI_Comm_free_keyval(&k);
    MPI_Comm_free_keyval(&final_keyval);
    MPI_Comm_free_keyval(&early_keyval);
    vine__say_release();
    atomic_store(&final_hooked, 0);
    vine__inner_release();
    return MPI_SUCCESS;
}

/*
 * A communicator freed while requests vine left to the MPI library before
 * its state existed may still run: they finish here, as a state's do
 * (state_delete), since Open MPI's nonblocking collectives crash on a
 * communicator freed under them.
 */
static int early_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)keyval;
    (void)attr;
    (void)extra;
    vine__nb_drain_early(comm);
    return MPI_SUCCESS;
}

/* Makes the keyvals once; a thread that finds them made returns at once. */
static int create_keyvals(void)
{
    int rc = MPI_SUCCESS, k = MPI_KEYVAL_INVALID;
    vine__lock();
    if (atomic_load(&state_keyval) == MPI_KEYVAL_INVALID) {
        rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, state_delete, &k, NULL);
        if (rc == MPI_SUCCESS)
            rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, final_delete, &final_keyval, NULL);
        if (rc == MPI_SUCCESS)
            rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, early_delete, &early_keyval, NULL);
        if (rc == MPI_SUCCESS)
            atomic_store(&state_keyval, k);
    }
    vine__unlock();
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/*
 * Sets the attribute whose deletion at MPI_Finalize frees what is left, once
 * MPI_COMM_SELF exists: under the sessions model alone it does not, and the
 * states go with their communicators (MPI_Session_finalize wants them freed
 * first); a later MPI_Init brings the hook.
 */
static int hook_finalize(void)
{
    int rc = MPI_SUCCESS;
    vine__lock();
    if (!atomic_load(&final_hooked) && vine__world_up() &&
        (rc = MPI_Comm_set_attr(MPI_COMM_SELF, final_keyval, NULL)) == MPI_SUCCESS)
        atomic_store(&final_hooked, 1);
    vine__unlock();
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
}

int vine__comm_lookup(MPI_Comm comm, vine_comm_state **st, int *p, int *rank)
{
    int flag = 0, inter = 0;
    *st = NULL;
    if (comm == MPI_COMM_NULL)
        return MPI_ERR_COMM;
    if (vine__last_state && vine__last_state->user == comm) {
        *st = vine__last_state;
        *p = vine__last_state->p;
        *rank = vine__last_state->rank;
        return MPI_SUCCESS;
    }
    int keyval = atomic_load(&state_keyval);
    if (keyval != MPI_KEYVAL_INVALID) {
        void *v = NULL;
        if (MPI_Comm_get_attr(comm, keyval, &v, &flag) == MPI_SUCCESS && flag) {
            *st = v;
            if (!vine__mt())
                vine__last_state = v;
            *p = (*st)->p;
            *rank = (*st)->rank;
            return MPI_SUCCESS;
        }
    }
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return MPI_ERR_COMM;
    if (MPI_Comm_size(comm, p) != MPI_SUCCESS || MPI_Comm_rank(comm, rank) != MPI_SUCCESS)
        return MPI_ERR_COMM;
    return MPI_SUCCESS;
}

/*
 * The MPI library refused what (failed is the error) on every rank: st keeps no
 * private communicator and no levels, and the MPI library serves every
 * collective on the communicator (vine__call_attach).  MPICH runs out of
 * context IDs after about 2,000 communicators, and vine's private copy
 * takes one more per communicator it serves.
 */
static void mpi_only(vine_comm_state *st, const char *what, int failed)
{
    if (st->comm != MPI_COMM_NULL)
        MPI_Comm_free(&st->comm);
    st->comm = MPI_COMM_NULL;
    vine__levels_free(&st->levels);
    vine__levels_free(&st->levels_full);
    st->levels_rc = MPI_SUCCESS;
    st->mpi_only = 1;
    /* MPICH's string is an error stack: its last line names the cause. */
    char err[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    if (MPI_Error_string(failed, err, &len) != MPI_SUCCESS || len < 0)
        len = 0;
    err[len] = '\0';
    while (len > 0 && (err[len - 1] == '\n' || err[len - 1] == ' '))
        err[--len] = '\0';
    const char *cause = strrchr(err, '\n');
    snprintf(st->levels_msg, sizeof st->levels_msg,
             "none: %s (%s), so the MPI library serves every collective on it", what,
             cause ? cause + 1 : err);
    snprintf(st->shm.msg, sizeof st->shm.msg, "none (the MPI library serves every collective)");
}

/* VINE_VERBOSE's line on the levels of st's communicator (rank 0). */
static void say_levels(vine_comm_state *st)
{
    char name[MPI_MAX_OBJECT_NAME + 32];
    vine__say_comm_name(st->user, name, (int)sizeof name);
    fprintf(stderr, "vine: levels of %s (p=%d): %s%s\n", name, st->p,
            st->levels_rc == MPI_SUCCESS ? "" : "error, every collective on it fails: ",
            st->levels_msg);
}

/*
 * Finds the levels of st's communicator, on the private copy so that no
 * message can match the user's.  Every rank gets the same outcome, success
 * or error, and VINE_VERBOSE has rank 0 say which.  An MPI call that failed
 * there (not the settings) makes the state mpi_only.
 */
static void discover(vine_comm_state *st)
{
    st->levels_rc = vine__levels_discover_all(st->comm, &st->levels, &st->levels_full,
                                              st->levels_msg, sizeof st->levels_msg);
    if (st->levels_rc != MPI_SUCCESS && strcmp(st->levels_msg, VINE_LEVELS_MPI_FAILED) == 0)
        mpi_only(st, VINE_LEVELS_MPI_FAILED, st->levels_rc);
    if (!vine__verbose() || st->rank != 0)
        return;
    say_levels(st);
    /* Only a map with nodes in it says how many ranks share one. */
    if (st->levels_rc == MPI_SUCCESS && vine__levels_ready(&st->levels, st->p) &&
        !vine__levels_flat(&st->levels))
        vine__choose_tuning_node(
            vine__levels_size(&st->levels, 0, vine__levels_group(&st->levels, 0, 0)));
}

/*
 * The private communicator comes from MPI_Comm_split with one colour and the
 * old ranks as keys: the same group in the same order as MPI_Comm_dup, but
 * without copying the user's attributes (whose copy callbacks would run).
 * The split runs with MPI_ERRORS_RETURN on comm, so that a refusal comes
 * back here rather than to the program's handler (which aborts by default),
 * and the ranks agree on its outcome: on a refusal the state is mpi_only.
 */
static int private_split(vine_comm_state *st)
{
    /* SimGrid's SMPI answers MPI_ERRHANDLER_NULL for a communicator whose
     * handler was never set, and refuses it back: then nothing is swapped
     * (nor is there a limit of communicators to meet there). */
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    int swap = MPI_Comm_get_errhandler(st->user, &eh) == MPI_SUCCESS && eh != MPI_ERRHANDLER_NULL;
    if (swap && MPI_Comm_set_errhandler(st->user, MPI_ERRORS_RETURN) != MPI_SUCCESS) {
        MPI_Errhandler_free(&eh);
        return MPI_ERR_OTHER;
    }
    int split = MPI_Comm_split(st->user, 0, st->rank, &st->comm);
    if (split != MPI_SUCCESS)
        st->comm = MPI_COMM_NULL; /* undefined after an error */
    else
        split = MPI_Comm_set_errhandler(st->comm, MPI_ERRORS_RETURN);
    int ok = split == MPI_SUCCESS, all = 0;
    int rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, st->user);
    if (swap) {
        MPI_Comm_set_errhandler(st->user, eh);
        MPI_Errhandler_free(&eh);
    }
    if (rc != MPI_SUCCESS)
        return rc;
    if (!all)
        mpi_only(st,
                 split == MPI_SUCCESS ? "MPI_Comm_split failed on another rank"
                                      : "MPI_Comm_split failed",
                 split != MPI_SUCCESS ? split : MPI_ERR_OTHER);
    return MPI_SUCCESS;
}

static int state_new(MPI_Comm comm, vine_comm_state **out)
{
    vine_comm_state *st = calloc(1, sizeof *st);
    if (!st)
        return MPI_ERR_NO_MEM;
    st->user = comm;
    st->comm = MPI_COMM_NULL;
    st->pcomm = MPI_COMM_NULL;
    st->shm.node = MPI_COMM_NULL;
    st->shm.win = MPI_WIN_NULL;
    st->op_dt = MPI_DATATYPE_NULL;
    st->op_op = MPI_OP_NULL;
    MPI_Comm_size(comm, &st->p);
    MPI_Comm_rank(comm, &st->rank);
    st->counts = malloc((size_t)st->p * sizeof *st->counts);
    st->displs = malloc(((size_t)st->p + 1) * sizeof *st->displs);
    vine__lock();
    st->next = all_states;
    if (all_states)
        all_states->prev = st;
    all_states = st;
    vine__unlock();
    if (!st->counts || !st->displs) {
        state_free(st);
        return MPI_ERR_NO_MEM;
    }
    if (private_split(st) != MPI_SUCCESS) {
        state_free(st);
        return MPI_ERR_OTHER;
    }
    if (!st->mpi_only)
        discover(st);
    else if (vine__verbose() && st->rank == 0)
        say_levels(st);
    if (!st->mpi_only)
        vine__shm_setup(st);
    if (vine__verbose() && st->rank == 0)
        fprintf(stderr, "vine: shared memory (p=%d): %s\n", st->p, st->shm.msg);
    *out = st;
    return MPI_SUCCESS;
}

int vine__comm_state(MPI_Comm comm, vine_comm_state **st)
{
    int p, rank, rc;
    if ((rc = vine__comm_lookup(comm, st, &p, &rank)) != MPI_SUCCESS || *st)
        return rc;
    if (atomic_load(&state_keyval) == MPI_KEYVAL_INVALID && (rc = create_keyvals()) != MPI_SUCCESS)
        return rc;
    if (!atomic_load(&final_hooked) && (rc = hook_finalize()) != MPI_SUCCESS)
        return rc;
    if ((rc = state_new(comm, st)) != MPI_SUCCESS)
        return rc;
    if (MPI_Comm_set_attr(comm, atomic_load(&state_keyval), *st) != MPI_SUCCESS) {
        state_free(*st);
        *st = NULL;
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

int vine__comm_mark_early(MPI_Comm comm)
{
    int rc, flag = 0;
    void *v = NULL;
    if (atomic_load(&state_keyval) == MPI_KEYVAL_INVALID && (rc = create_keyvals()) != MPI_SUCCESS)
        return rc;
    if (!atomic_load(&final_hooked) && (rc = hook_finalize()) != MPI_SUCCESS)
        return rc;
    if (MPI_Comm_get_attr(comm, early_keyval, &v, &flag) != MPI_SUCCESS)
        return MPI_ERR_COMM;
    if (!flag && MPI_Comm_set_attr(comm, early_keyval, NULL) != MPI_SUCCESS)
        return MPI_ERR_OTHER;
    return MPI_SUCCESS;
}

int vine_topology_info(MPI_Comm comm, int *nlevels, char *msg, int msglen)
{
    vine_comm_state *st;
    if (nlevels)
        *nlevels = 0;
    if (msg && msglen > 0)
        msg[0] = '\0';
    if (msglen < 0)
        return MPI_ERR_ARG;
    int rc = vine__comm_state(comm, &st);
    if (rc != MPI_SUCCESS)
        return rc;
    if (msg && msglen > 0)
        snprintf(msg, (size_t)msglen, "%s", st->levels_msg);
    /* The levels inside the nodes count too, when there are any. */
    if (nlevels && st->levels_rc == MPI_SUCCESS)
        *nlevels = vine__levels_dividing(st->levels_full.group ? &st->levels_full : &st->levels);
    return st->levels_rc;
}

int vine_shm_info(MPI_Comm comm, int *shm, int *single, char *msg, int msglen)
{
    vine_comm_state *st;
    if (shm)
        *shm = 0;
    if (single)
        *single = 0;
    if (msg && msglen > 0)
        msg[0] = '\0';
    if (msglen < 0)
        return MPI_ERR_ARG;
    int rc = vine__comm_state(comm, &st);
    if (rc != MPI_SUCCESS)
        return rc;
    if (shm)
        *shm = st->shm.ok ? 1 + st->shm.all : 0;
    if (single)
        *single = st->shm.ok && st->shm.x.single;
    if (msg && msglen > 0)
        snprintf(msg, (size_t)msglen, "%s", st->shm.msg);
    return MPI_SUCCESS;
}
