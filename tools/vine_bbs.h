/* `vine bbs ...`: the broadcast step model's command line (tools/vine_bbs.c). */
#ifndef VINE_TOOLS_BBS_H
#define VINE_TOOLS_BBS_H

/* argv[0] is "bbs"; returns the process exit status. */
int vine_cmd_bbs(int argc, char **argv);

#endif
