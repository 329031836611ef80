/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* protocol: what cordon and its two helpers say to each other, in one
 * place, so that neither side can spell a word the other does not know.
 * cordon starts cordon-keeper with bwrap's fds at fixed numbers; the
 * keeper answers on its socket with one word ("P<pid>", "E<errno>",
 * "S<errno>"), hears one byte back ("R") once the sandbox is released,
 * and says what the sandbox's cgroups counted ("C") and what its
 * processes used ("U") before it ends. Inside, cordon-exec reads the verification spec, reports one
 * line per check and a status word, and waits for cordon's word ("G")
 * before it runs the command. Plain C: the helpers include it. */
#pragma once

/* --- fd numbers ------------------------------------------------------------
 * Where launch.c puts each fd in the keeper (and so in bwrap, which keeps
 * those below CORDON_FD_LIFE) and where the helpers find theirs. */

#define CORDON_FD_ARGS 3         /* bwrap's --args: the options, NUL-separated; the first of bwrap's */
#define CORDON_FD_JSON 4         /* bwrap's --json-status-fd: child pid and exit code */
#define CORDON_EXEC_STATUS_FD 5  /* cordon-exec's status lines (CordonExecWord): a unix socket */
#define CORDON_FD_SPEC 6         /* cordon-exec's verification spec (a sealed memfd) */
#define CORDON_EXEC_GO_FD 7      /* cordon's word to cordon-exec after the outside checks */
#define CORDON_FD_SECCOMP 8      /* bwrap's --seccomp: the filter's BPF (a sealed memfd) */
#define CORDON_FD_LIFE 9         /* the keeper's end of its socket to cordon; not bwrap's */
#define CORDON_FD_STAGE 10       /* the keeper's --stage instructions, then the trees they name */
/* Nothing more goes below CORDON_FD_LIFE: with fds 3-9 all taken, a dash
 * script given as --bwrap reads itself from fd 10, which it does not mark
 * close-on-exec (it does so only for an fd below 10 it moves up), and
 * bwrap passes it into the sandbox. */

/* Where cordon-exec is bound inside the sandbox: /dev is the fresh tmpfs
 * bwrap makes (--dev), so the mount point can be made under any root. */
#define CORDON_EXEC_SANDBOX_PATH "/dev/.cordon-exec"

/* --- cordon-exec, on its status fd -----------------------------------------
 * Each a line: the word's letter, then what the word says. */
typedef enum
{
  CORDON_EXEC_RESULT = 'V',      /* "V<TAB>ID<TAB>ok|fail<TAB>ERRNO<TAB>DETAIL": one check */
  CORDON_EXEC_FAILED = 'X',      /* a check failed: nothing runs */
  CORDON_EXEC_WAITING = 'W',     /* every check passed; waiting, stopped, for cordon's word */
  CORDON_EXEC_RUNNING = 'R',     /* the command is being exec'd */
  CORDON_EXEC_EXEC_ERRNO = 'E',  /* "E<errno>": exec failed */
  CORDON_EXEC_SETUP_ERRNO = 'K', /* "K<errno>": no fresh session keyring, no no_new_privs, no
                                  * listened filter */
  CORDON_EXEC_LISTENER = 'N',    /* the listener of the filter cordon-exec loaded (--notify), sent
                                  * with the word (SCM_RIGHTS): cordon answers its refused calls */
  CORDON_EXEC_FORK_ERRNO = 'F',  /* "F<errno>": as pid 1, it could not fork the command */
  CORDON_EXEC_UNLISTENED = 'L',  /* "L<errno>": the kernel gave no listener (EBUSY: one of a filter
                                  * above cordon's); the plain filter is loaded, its refusals unnamed */
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
  CORDON_KEEPER_STAGE_ERRNO = 'S', /* "S<errno>[ WHAT PATH]": the stage failed, and where */
  CORDON_KEEPER_CGROUP_ERRNO = 'G',/* "G<errno> WHAT NAME[/FILE]": a cgroup could not be made */
  CORDON_KEEPER_COUNTER = 'C',     /* "C<I> FILE TEXT": a counter of cgroup I after the run,
                                    * its lines joined by ';' (any number, before the keeper ends) */
  CORDON_KEEPER_PLACEHOLDER_ERRNO = 'H', /* "H<errno> WHAT NAME": a placeholder could not be made */
  CORDON_KEEPER_USAGE = 'U',       /* "U<USER-US> <SYSTEM-US> <MAX-RSS-KIB>": what bwrap and all below
                                    * it used (getrusage RUSAGE_CHILDREN), its last word */
} CordonKeeperWord;

/* The longest word, its newline included (a longer reason is cut). */
#define CORDON_KEEPER_WORD_MAX 1024

/* The keeper's command line: LIFE_FD PGID kill|leave [--stage FD] [--cgroup FD] [--placeholders FD]
 * BWRAP...;
 * cordon-exec's: STATUS_FD [--verify SPEC_FD GO_FD] COMMAND... */
#define CORDON_KEEPER_KILL "kill"       /* cordon gone: kill the sandbox */
#define CORDON_KEEPER_LEAVE "leave"     /* cordon gone: a released sandbox may outlive it */
#define CORDON_KEEPER_ARG_STAGE "--stage"
#define CORDON_KEEPER_ARG_CGROUP "--cgroup"     /* --cgroup FD: cgroup instructions, the parents' fds after */
#define CORDON_KEEPER_ARG_PLACEHOLDERS "--placeholders" /* --placeholders FD: the placeholders, their
                                                         * parents' fds after */
#define CORDON_EXEC_ARG_VERIFY "--verify"
/* cordon-exec STATUS_FD [--rlimits FSIZE,NOFILE,CORE,NPROC] ...: each a number
 * (soft and hard limit both), or "-" to leave it. */
#define CORDON_EXEC_ARG_RLIMITS "--rlimits"
/* cordon-exec STATUS_FD [--rlimits ...] [--notify LISTENED,PLAIN] ...: the first
 * LISTENED bytes on STATUS_FD, written there by cordon before the sandbox
 * starts, are the filter to load with a listener, after no_new_privs and
 * before any check; the PLAIN bytes after them, the one to load instead
 * where the kernel gives no listener. */
#define CORDON_EXEC_ARG_NOTIFY "--notify"

/* cordon's one byte to the keeper: the sandbox is released, and may be
 * left running should cordon go (a policy's die-with-parent=false). */
#define CORDON_KEEPER_RELEASED 'R'
/* cordon's one byte to a keeper waiting to be placed in its scope: it is. */
#define CORDON_KEEPER_PLACED 'M'

/* --- the stage: cordon-keeper's instructions (see stage.h) ------------------ */
#define CORDON_STAGE_LINE_SHADOW "shadow"   /* shadow<TAB>PATH */
#define CORDON_STAGE_LINE_ATTACH "attach"   /* attach<TAB>N<TAB>dir|file<TAB>PATH */
#define CORDON_STAGE_LINE_IDS "ids"         /* ids<TAB>UID<TAB>GID, the last line */

/* --- cordon-keeper's placeholders (see keeper-placeholder.h) --------------- */
#define CORDON_PLACEHOLDER_LINE "placeholder" /* placeholder<TAB>I<TAB>NAME: an empty directory NAME
                                               * in parent fd I */
/* A placeholder's mode: an empty directory of this mode at a protected
 * path is taken for one (of a run going on, or left by a keeper killed). */
#define CORDON_PLACEHOLDER_MODE 0555

/* --- cordon-keeper's cgroups (see keeper-cgroup.h) ------------------------- */
#define CORDON_CGROUP_LINE_DIR "cgroup"     /* cgroup<TAB>I<TAB>NAME: make NAME below parent fd I */
#define CORDON_CGROUP_LINE_SCOPE "scope"    /* scope<TAB>I<TAB>NAME<TAB>PARENT: wait to be placed in NAME
                                             * (a systemd scope in PARENT, encoded), then start bwrap */
#define CORDON_CGROUP_LINE_HOME "home"      /* home<TAB>I: the fd after the parents' is where the keeper
                                             * goes back to from I (DELEGATED: cordon's own cgroup) */
#define CORDON_SCOPE_KEEPER "keeper"        /* a scope's leaves: the keeper's, and the sandbox's */
#define CORDON_SCOPE_SANDBOX "sandbox"
#define CORDON_CGROUP_LINE_SET "set"        /* set<TAB>I<TAB>FILE<TAB>VALUE, in order */
#define CORDON_CGROUP_LINE_STAT "stat"      /* stat<TAB>I<TAB>FILE: a counter sent after the run */

/* --- the verification spec: cordon's lines to cordon-exec -----------------
 * One line each, its fields separated by tabs, each field %XX-encoded
 * (path-util's encoder, spec-codec's decoder). A line of a verb cordon-exec
 * does not know, or with another number of fields, fails the check
 * CORDON_SPEC_UNKNOWN_ID: no check of cordon's, so the run fails. */
typedef enum
{
  CORDON_SPEC_SOCKET,         /* socket ID PATH */
  CORDON_SPEC_SECRET_FILE,    /* secret-file ID PATH */
  CORDON_SPEC_SECRET_DIR,     /* secret-dir ID PATH */
  CORDON_SPEC_READ_ONLY,      /* read-only ID PATH */
  CORDON_SPEC_UNREACHABLE,    /* unreachable ID PATH */
  CORDON_SPEC_NAMESPACE,      /* namespace ID NAME HOST-INODE */
  CORDON_SPEC_PROC_SYS,       /* proc-sys: the check CORDON_CHECK_PROC_SYS */
  CORDON_SPEC_SECCOMP,        /* seccomp ID,ID...: those seccomp probes ("-": none) */
  CORDON_SPEC_ENV_ALLOW,      /* env-allow NAME: a name that may be set */
  CORDON_SPEC_DIGEST,         /* digest HEX: the sha256 of a value that must appear nowhere */
  CORDON_SPEC_PID_NAMESPACE,  /* pid-namespace: only the sandbox's processes may show */
  CORDON_SPEC_HOST_PROC,      /* host-proc PID: the host's /proc, cordon's pid in it */
  CORDON_SPEC_OUTSIDE_SHOWN,  /* outside-shown: processes outside show; none may be open */
  CORDON_SPEC_CAPEFF,         /* capeff HEX: the capabilities the policy keeps */
  CORDON_SPEC_CGROUP,         /* cgroup ID LEAF PARENT FILE|-: a cgroup of the sandbox's */
  CORDON_SPEC_PINNED,         /* pinned ID PATH: a mount point under a writable bind */
  CORDON_SPEC_HIDDEN,         /* hidden ID PATH SHOWN: SHOWN its only entries, '/'-joined after a '/' */
  CORDON_SPEC_MAX
} CordonSpecVerb;

typedef struct
{
  const char *word;           /* the line's first field */
  unsigned n_fields;          /* the line's fields, the word among them */
  const char *expect;         /* what the check of each such line (its ID the line's) proves, or
                               * NULL: the line makes no check of its own */
} CordonSpecVerbInfo;

extern const CordonSpecVerbInfo cordon_spec_verbs[CORDON_SPEC_MAX];

/* The verb a line of `n_fields` fields begins with, or CORDON_SPEC_MAX. */
CordonSpecVerb cordon_spec_verb_find (const char *word,
                                      unsigned n_fields);

#define CORDON_SPEC_UNKNOWN_ID "spec"

/* --- the checks of a fixed id -----------------------------------------------
 * Both sides name them from this table: the spec's path checks are
 * numbered instead, by the line that asks for them. In the order cordon
 * lists them: proc-sys, the seccomp probes, then the checks every sandbox
 * gets (some only under a plan that needs them), then the last two from
 * outside. */
typedef enum
{
  CORDON_CHECK_PROC_SYS,
  CORDON_CHECK_SECCOMP_KEYRING,
  CORDON_CHECK_SECCOMP_TIOCSTI,
  CORDON_CHECK_SECCOMP_MOUNT_API,
  CORDON_CHECK_SECCOMP_BY_NUMBER,
  CORDON_CHECK_SECCOMP_CLONE3,
  CORDON_CHECK_SECCOMP_USERNS,
  CORDON_CHECK_SECCOMP_SOCKET_FAMILY,
  CORDON_CHECK_SECCOMP_IO_URING,
  CORDON_CHECK_SECCOMP_SETUID,
  CORDON_CHECK_ENVIRON,
  CORDON_CHECK_MOUNT,
  CORDON_CHECK_TIOCSTI,
  CORDON_CHECK_KEYRING,
  CORDON_CHECK_DROPPED_VALUES,
  CORDON_CHECK_CORDON_UNREADABLE,   /* under the host's /proc only */
  CORDON_CHECK_FDS,
  CORDON_CHECK_CAPABILITIES,
  CORDON_CHECK_NO_NEW_PRIVS,
  CORDON_CHECK_FILTERED,            /* with a seccomp filter only */
  CORDON_CHECK_PROCESSES,           /* with a pid namespace only */
  CORDON_CHECK_PROCESSES_CLOSED,    /* where processes outside show */
  CORDON_CHECK_OUTSIDE_ENVIRON,
  CORDON_CHECK_OUTSIDE_STATUS,
  CORDON_CHECK_OUTSIDE_NAMESPACES,
  CORDON_CHECK_OUTSIDE_FDS,
  CORDON_CHECK_OUTSIDE_MASKS,
  CORDON_CHECK_OUTSIDE_PROC_SYS,
  CORDON_CHECK_OUTSIDE_IDENTITY,
  CORDON_CHECK_OUTSIDE_SCRATCH,
  CORDON_CHECK_OUTSIDE_RLIMITS,
  CORDON_CHECK_OUTSIDE_CGROUP,      /* with a cgroup only */
  CORDON_CHECK_MAX
} CordonCheckId;

typedef struct
{
  const char *id;             /* as the result lines and the report name it */
  const char *expect;         /* one line: what must hold; NULL for outside-identity, whose
                               * expectation names the plan's host user (verify.c) */
} CordonCheckInfo;

extern const CordonCheckInfo cordon_checks[CORDON_CHECK_MAX];
