/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* protocol: what cordon and its two helpers say to each other, in one
 * place, so that neither side can spell a word the other does not know.
 * cordon starts cordon-keeper with bwrap's fds at fixed numbers; the
 * keeper answers on its socket with one word ("P<pid>", "E<errno>",
 * "S<errno>") and hears one byte back ("R") once the sandbox is
 * released. Inside, cordon-exec reads the verification spec, reports one
 * line per check and a status word, and waits for cordon's word ("G")
 * before it runs the command. Plain C: the helpers include it. */
#pragma once

/* --- fd numbers ------------------------------------------------------------
 * Where launch.c puts each fd in the keeper (and so in bwrap, which keeps
 * those below CORDON_FD_LIFE) and where the helpers find theirs. */

#define CORDON_FD_ARGS 3         /* bwrap's --args: the options, NUL-separated; the first of bwrap's */
#define CORDON_FD_JSON 4         /* bwrap's --json-status-fd: child pid and exit code */
#define CORDON_EXEC_STATUS_FD 5  /* cordon-exec's status lines (CordonExecWord) */
#define CORDON_FD_SPEC 6         /* cordon-exec's verification spec (a sealed memfd) */
#define CORDON_EXEC_GO_FD 7      /* cordon's word to cordon-exec after the outside checks */
#define CORDON_FD_SECCOMP 8      /* bwrap's --seccomp: the filter's BPF (a sealed memfd) */
#define CORDON_FD_LIFE 9         /* the keeper's end of its socket to cordon; not bwrap's */
#define CORDON_FD_STAGE 10       /* the keeper's --stage instructions, then the trees they name */

/* --- cordon-exec, on its status fd -----------------------------------------
 * Each a line: the word's letter, then what the word says. */
typedef enum
{
  CORDON_EXEC_RESULT = 'V',      /* "V<TAB>ID<TAB>ok|fail<TAB>ERRNO<TAB>DETAIL": one check */
  CORDON_EXEC_FAILED = 'X',      /* a check failed: nothing runs */
  CORDON_EXEC_WAITING = 'W',     /* every check passed; waiting, stopped, for cordon's word */
  CORDON_EXEC_RUNNING = 'R',     /* the command is being exec'd */
  CORDON_EXEC_EXEC_ERRNO = 'E',  /* "E<errno>": exec failed */
  CORDON_EXEC_SETUP_ERRNO = 'K', /* "K<errno>": no fresh session keyring, or no no_new_privs */
} CordonExecWord;

/* The third field of a result line. */
#define CORDON_RESULT_OK "ok"
#define CORDON_RESULT_FAIL "fail"

/* cordon's one byte on the go fd: the command may run. Any other byte,
 * or none, stops it. */
#define CORDON_EXEC_GO 'G'
#define CORDON_EXEC_STOP 'A'

/* --- cordon-keeper, on its socket to cordon --------------------------------- */
typedef enum
{
  CORDON_KEEPER_PID = 'P',         /* "P<pid>": bwrap started */
  CORDON_KEEPER_ERRNO = 'E',       /* "E<errno>": bwrap could not be started */
  CORDON_KEEPER_STAGE_ERRNO = 'S', /* "S<errno>": the stage failed (its reason on stderr) */
} CordonKeeperWord;

/* cordon's one byte to the keeper: the sandbox is released, and may be
 * left running should cordon go (a policy's die-with-parent=false). */
#define CORDON_KEEPER_RELEASED 'R'

/* --- the stage: cordon-keeper's instructions (see stage.h) ------------------ */
#define CORDON_STAGE_LINE_SHADOW "shadow"   /* shadow<TAB>PATH */
#define CORDON_STAGE_LINE_ATTACH "attach"   /* attach<TAB>N<TAB>dir|file<TAB>PATH */
#define CORDON_STAGE_LINE_IDS "ids"         /* ids<TAB>UID<TAB>GID, the last line */
