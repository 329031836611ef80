/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc-read: what cordon and its helpers read of a process in /proc: a
 * whole /proc/PID file, one field of /proc/PID/status, the state and
 * parent in /proc/PID/stat, and the processes below one. Plain libc, so
 * that cordon-exec and cordon-keeper link it as cordon does. Each reading
 * is one look at a process that may be changing or gone: a caller that
 * needs a consistent view of one file reads it once (cordon_proc_read)
 * and asks the text (cordon_proc_status_find). What is returned is
 * malloc'd: free() frees it, and so does g_free() (GLib's allocator is
 * the system's). */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/* All of /proc/PID/NAME (pid 0: /proc/self/NAME; NAME may be a path,
 * "task/TID/children"), malloc'd and NUL-terminated, its length without
 * the NUL in *out_len when that is not NULL; NULL with errno when it
 * cannot be read. */
char *cordon_proc_read (pid_t pid,
                        const char *name,
                        size_t *out_len);

/* In the text of a /proc/PID/status (NULL: none), the value of `field`
 * ("CapEff"): what follows "FIELD:" and its blanks at the start of a
 * line, up to the end of that line. A pointer into `status`, its length
 * in *out_len; NULL when no line holds the field. */
const char *cordon_proc_status_find (const char *status,
                                     const char *field,
                                     size_t *out_len);

/* The value of one field of /proc/PID/status (pid 0: this process's),
 * malloc'd; NULL with errno (ENOENT: no such field). */
char *cordon_proc_status_field (pid_t pid,
                                const char *field);

/* The state ('R', 'S', 'Z'...) and parent in the text of a
 * /proc/PID/stat, "PID (NAME) S PPID ...": NAME may hold spaces and
 * parentheses, so the fields are read after the last ')'. 0, or -1
 * (EINVAL) when the text is not of that shape; outputs only on success. */
int cordon_proc_stat_parse (const char *text,
                            char *out_state,
                            pid_t *out_ppid);
/* The same of /proc/PID/stat: -1 with errno when the process is gone. */
int cordon_proc_stat (pid_t pid,
                      char *out_state,
                      pid_t *out_ppid);

/* A growing list of pids (a failed allocation aborts, as GLib's do). */
typedef struct
{
  pid_t *pids;
  size_t len;
  size_t cap;
} CordonPidList;

void cordon_pid_list_add (CordonPidList *list,
                          pid_t pid);
int cordon_pid_list_contains (const CordonPidList *list,
                              pid_t pid);
void cordon_pid_list_clear (CordonPidList *list);

/* Appends the children of every thread of `pid`, from the kernel's
 * /proc/PID/task/TID/children lists (a few reads, not a scan of /proc).
 * 0 when at least one list was read; -1 when none could be: the kernel
 * has no such lists (CONFIG_PROC_CHILDREN), or `pid` is gone. */
int cordon_proc_children (pid_t pid,
                          CordonPidList *out);
/* Without those lists: one pass over every /proc/PID/stat, appending
 * each process whose parent is `root` or, with `transitive`, any process
 * below it (in the order the passes over that one reading find them). */
void cordon_proc_children_by_scan (pid_t root,
                                   int transitive,
                                   CordonPidList *out);
/* Appends every process below `root` (not `root`): from the children
 * lists, breadth first and bounded (65536 processes, root among them),
 * or by the scan when `root` has no list. Zombies included: a list is a
 * moment's, and any of them may have ended since. */
void cordon_proc_descendants (pid_t root,
                              CordonPidList *out);
