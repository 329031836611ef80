/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* audit: what a sandbox left in its writable paths for the host to trip
 * over after the run, found by a bounded walk of each once every process
 * of the sandbox is gone. A finding is something made or changed during
 * the run (its change time, or its birth time where the file system keeps
 * one, at or after the run's start: neither can be set by the sandbox):
 *   - a repository made during the run (a .git directory or file), and
 *     in any repository directory (one named .git, or with a HEAD of
 *     any kind: git takes a symlink) a hook made or changed (hooks/, not
 *     a *.sample), a config file whose keys run a program or that cannot
 *     be read as git reads it (src/git-config.h), a config or hooks/ made
 *     a symlink, or a commondir written (git takes the config and hooks
 *     of the directory it names);
 *   - a set-user-ID or set-group-ID file, or one with file capabilities;
 *   - a FIFO or a device node;
 *   - a symlink that points out of the writable path, where it leads on
 *     the host (realpath(3), nothing opened), but not into the host's
 *     programs and libraries: /usr, /bin, /sbin, /lib*, where a
 *     virtualenv's python points;
 *   - a [filesystem] protect= entry at the root (.envrc, .git/config,
 *     .vscode/) made or changed: what protect= did not hold read-only,
 *     such as one it skips as absent before the run (src/protect.h), a
 *     symlink there or on the way to it too, but not an empty
 *     directory (it runs nothing; cordon leaves such mount points), nor
 *     what the rules above name already: the same path, a path in a
 *     repository made during the run, a repository's hooks/ (each hook
 *     in it is named).
 * The walk never follows a symlink, never goes into a mount point (the
 * host's), and stops after a number of entries: what it could not look
 * at (past that number, deeper than 128 directories, a directory it may
 * not read, past 1000 findings) is a finding too. On a file system of
 * whole-second times the start is taken a second early.
 * Quarantine renames each finding aside in its own directory (NAME.cordon-
 * quarantine-RANDOM), once that directory has been read whole (a
 * protected path once the whole walk is done), and takes a set-ID bit
 * off, so that nothing of it runs; a repository made during the run
 * stays (what in it runs is moved). What it could not move, and what was
 * not looked at, is counted in `unheld`. */
#pragma once

#include <glib.h>
#include <time.h>

G_BEGIN_DECLS

typedef struct
{
  char *path;                 /* host path */
  char *what;                 /* one line, no value of the sandbox's but key names */
  char *quarantined;          /* where it was moved, or NULL */
} CordonPlanted;

typedef struct
{
  GPtrArray *findings;        /* CordonPlanted, sorted by path */
  guint entries;              /* looked at */
  gboolean complete;          /* FALSE: the walk stopped at max_entries, or at 1000 findings */
  guint unheld;               /* findings that stay where they were under quarantine: one that could
                               * not be moved, and each part of the tree not looked at */
  gint64 duration_us;
} CordonAudit;

void cordon_audit_init (CordonAudit *audit);
void cordon_audit_clear (CordonAudit *audit);
/* Walk the directory `root_fd` (the host path `root`, opened before the
 * run), adding to `audit`; `since` is the run's start (CLOCK_REALTIME_
 * COARSE, the clock of inode times). At most max_entries entries in all
 * the walks of one audit. `protect` (NULL-terminated, or NULL): the
 * protected entries, paths relative to the root, looked at after the
 * walk in every root, even one the bound leaves unwalked. */
void cordon_audit_walk (CordonAudit *audit,
                        int root_fd,
                        const char *root,
                        const char * const *protect,
                        const struct timespec *since,
                        guint max_entries,
                        gboolean quarantine);

G_END_DECLS
