/* `vine table ...`: Markdown tables of ratios from vine-bench result files (tools/vine_table.c). */
#ifndef VINE_TOOLS_TABLE_H
#define VINE_TOOLS_TABLE_H

/* argv[0] is "table"; returns the process exit status. */
int vine_cmd_table(int argc, char **argv);

#endif
