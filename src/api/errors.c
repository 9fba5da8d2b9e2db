/*
 * vine_error_string(): one sentence per error class vine returns, saying
 * what the caller most likely did wrong; MPI's own text for the others.
 */
#include "vine.h"

#include <stdio.h>

static const struct {
    int cls;
    const char *text;
} messages[] = {
    {MPI_SUCCESS, "No error."},
    {MPI_ERR_COMM, "Invalid communicator: MPI_COMM_NULL or an intercommunicator was passed "
                   "(vine collectives need a valid intracommunicator), or a persistent request "
                   "that runs on the node segment was started after its communicator was freed."},
    {MPI_ERR_COUNT, "Invalid count: a count or a recvcounts entry is negative, or counts or "
                    "displacements too large to address (in alltoallv, alltoallw, gatherv or "
                    "scatterv as a nonblocking call before any blocking one on the "
                    "communicator: above INT_MAX)."},
    {MPI_ERR_TYPE, "Invalid datatype: MPI_DATATYPE_NULL (or an unusable datatype) was passed."},
    {MPI_ERR_OP, "Invalid reduction operation: MPI_OP_NULL was passed, or the op does not apply "
                 "to the datatype."},
    {MPI_ERR_ROOT, "Invalid root: the root must be a rank of the communicator, 0 to size-1."},
    {MPI_ERR_BUFFER, "Invalid buffer: a NULL buffer was passed for data of a predefined type, "
                     "or MPI_IN_PLACE where MPI does not allow it (as a receive buffer, or as "
                     "reduce's send buffer on a rank other than the root)."},
    {MPI_ERR_TRUNCATE, "Type signatures differ: in allgather, sendcount times the size of "
                       "sendtype must equal recvcount times the size of recvtype."},
    {MPI_ERR_ARG, "Invalid argument: an unknown collective or algorithm name (check "
                  "vine_set_algorithm() and the VINE_<COLL>_ALGORITHM environment variables), "
                  "or a NULL recvcounts array."},
    {MPI_ERR_NO_MEM, "Out of memory: vine could not allocate a schedule or scratch space."},
    {MPI_ERR_UNSUPPORTED_OPERATION,
     "Unsupported: no algorithm of this collective could build a schedule for this call."},
    {MPI_ERR_INTERN, "Internal error in vine: an algorithm produced an inconsistent schedule; "
                     "please report it."},
    {MPI_ERR_OTHER, "MPI failed while vine set up or ran a collective (for instance while "
                    "creating its private communicator)."},
};

const char *vine_error_string(int errcode)
{
    static _Thread_local char buf[MPI_MAX_ERROR_STRING + 64]; /* one per thread */
    int cls = errcode, len = 0, up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down && MPI_Error_class(errcode, &cls) != MPI_SUCCESS)
        cls = errcode;
    for (size_t i = 0; i < sizeof messages / sizeof messages[0]; i++)
        if (messages[i].cls == cls)
            return messages[i].text;
    if (up && !down && MPI_Error_string(errcode, buf, &len) == MPI_SUCCESS)
        return buf;
    snprintf(buf, sizeof buf, "Unknown error code %d.", errcode);
    return buf;
}
