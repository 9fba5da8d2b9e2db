/* Placeholder until `vine sim` lands. */
#include "vine_sim.h"

#include <stdio.h>

int vine_cmd_sim(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "vine sim: not built yet\n");
    return 2;
}
