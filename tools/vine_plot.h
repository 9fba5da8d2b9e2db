/* `vine plot ...`: plots of vine-bench result files with gnuplot (tools/vine_plot.c). */
#ifndef VINE_TOOLS_PLOT_H
#define VINE_TOOLS_PLOT_H

/* argv[0] is "plot"; returns the process exit status. */
int vine_cmd_plot(int argc, char **argv);

#endif
