/* `vine sim ...`: the simulator's command line (tools/vine_sim.c). */
#ifndef VINE_TOOLS_SIM_H
#define VINE_TOOLS_SIM_H

/* argv[0] is "sim"; returns the process exit status. */
int vine_cmd_sim(int argc, char **argv);

#endif
