/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc-read: see proc-read.h. A /proc file is read to its end, whatever
 * its size (a children list of many pids, an environment), rather than
 * into a fixed buffer that would cut it in a number or a value. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc-read.h"
#include "spec-codec.h"

/* The children lists are followed this far, root included: a fork bomb
 * below cordon must not hold it here for ever. */
#define MAX_DESCENDANTS 65536

char *
cordon_proc_read (pid_t pid,
                  const char *name,
                  size_t *out_len)
{
  char path[4096];
  char *text;
  int fd, saved;

  if (pid > 0)
    snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, name);
  else
    snprintf (path, sizeof path, "/proc/self/%s", name);
  if ((fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY)) < 0)
    return NULL;
  text = cordon_read_fd_whole (fd, (size_t) -1, out_len);
  saved = errno;
  close (fd);
  errno = saved;
  return text;
}

const char *
cordon_proc_status_find (const char *status,
                         const char *field,
                         size_t *out_len)
{
  size_t len = strlen (field);

  for (const char *line = status; line != NULL && *line != '\0';
       line = strchr (line, '\n') != NULL ? strchr (line, '\n') + 1 : NULL)
    {
      const char *value;

      if (strncmp (line, field, len) != 0 || line[len] != ':')
        continue;
      value = line + len + 1;
      value += strspn (value, " \t");
      *out_len = strcspn (value, "\n");
      return value;
    }
  return NULL;
}

char *
cordon_proc_status_field (pid_t pid,
                          const char *field)
{
  char *status = cordon_proc_read (pid, "status", NULL);
  size_t len = 0;
  const char *value = cordon_proc_status_find (status, field, &len);
  char *copy = value != NULL ? strndup (value, len) : NULL;

  if (status != NULL && value == NULL)
    errno = ENOENT;
  free (status);
  return copy;
}

int
cordon_proc_stat_parse (const char *text,
                        char *out_state,
                        pid_t *out_ppid)
{
  const char *p = text != NULL ? strrchr (text, ')') : NULL;

  if (p == NULL || p[1] != ' ' || p[2] == '\0')
    return errno = EINVAL, -1;
  *out_state = p[2];
  *out_ppid = (pid_t) strtol (p + 3, NULL, 10);
  return 0;
}

int
cordon_proc_stat (pid_t pid,
                  char *out_state,
                  pid_t *out_ppid)
{
  char *text = cordon_proc_read (pid, "stat", NULL);
  int rc = text != NULL ? cordon_proc_stat_parse (text, out_state, out_ppid) : -1;

  free (text);
  return rc;
}

void
cordon_pid_list_add (CordonPidList *list,
                     pid_t pid)
{
  if (list->len == list->cap)
    {
      size_t cap = list->cap > 0 ? list->cap * 2 : 16;
      pid_t *bigger = realloc (list->pids, cap * sizeof *bigger);

      if (bigger == NULL)
        abort ();
      list->pids = bigger;
      list->cap = cap;
    }
  list->pids[list->len++] = pid;
}

int
cordon_pid_list_contains (const CordonPidList *list,
                          pid_t pid)
{
  for (size_t i = 0; i < list->len; i++)
    if (list->pids[i] == pid)
      return 1;
  return 0;
}

void
cordon_pid_list_clear (CordonPidList *list)
{
  free (list->pids);
  list->pids = NULL;
  list->len = list->cap = 0;
}

/* "PID PID ...": each number the list holds. */
static void
add_listed (const char *text,
            CordonPidList *out)
{
  for (const char *p = text; *p != '\0';)
    {
      char *end = NULL;
      long pid = strtol (p, &end, 10);

      if (end == p)
        {
          p++;
          continue;
        }
      if (pid > 0)
        cordon_pid_list_add (out, (pid_t) pid);
      p = end;
    }
}

int
cordon_proc_children (pid_t pid,
                      CordonPidList *out)
{
  char path[64];
  DIR *dir;
  struct dirent *de;
  int listed = 0;

  snprintf (path, sizeof path, "/proc/%d/task", (int) pid);
  dir = opendir (path);
  while (dir != NULL && (de = readdir (dir)) != NULL)
    {
      char name[300];
      char *text;

      if (strcmp (de->d_name, ".") == 0 || strcmp (de->d_name, "..") == 0)
        continue;
      snprintf (name, sizeof name, "task/%s/children", de->d_name);
      if ((text = cordon_proc_read (pid, name, NULL)) == NULL)
        continue;
      listed = 1;
      add_listed (text, out);
      free (text);
    }
  if (dir != NULL)
    closedir (dir);
  return listed ? 0 : (errno = ENOENT, -1);
}

/* Every process's parent, in one pass over /proc: pairs (pid, ppid). */
static void
read_parents (CordonPidList *pairs)
{
  DIR *dir = opendir ("/proc");
  struct dirent *de;

  while (dir != NULL && (de = readdir (dir)) != NULL)
    {
      pid_t pid = (pid_t) strtol (de->d_name, NULL, 10), ppid;
      char state;

      if (pid > 0 && cordon_proc_stat (pid, &state, &ppid) == 0)
        {
          cordon_pid_list_add (pairs, pid);
          cordon_pid_list_add (pairs, ppid);
        }
    }
  if (dir != NULL)
    closedir (dir);
}

void
cordon_proc_children_by_scan (pid_t root,
                              int transitive,
                              CordonPidList *out)
{
  CordonPidList pairs = { 0 }, below = { 0 };
  int grew = 1;

  read_parents (&pairs);
  cordon_pid_list_add (&below, root);
  /* Again and again over the one reading, until no process is added: a
   * child listed before its parent is found on the next pass. */
  while (grew)
    {
      grew = 0;
      for (size_t i = 0; i + 1 < pairs.len; i += 2)
        {
          pid_t pid = pairs.pids[i], ppid = pairs.pids[i + 1];

          if (!cordon_pid_list_contains (&below, ppid) || cordon_pid_list_contains (&below, pid))
            continue;
          cordon_pid_list_add (out, pid);
          if (transitive)
            {
              cordon_pid_list_add (&below, pid);
              grew = 1;
            }
        }
    }
  cordon_pid_list_clear (&pairs);
  cordon_pid_list_clear (&below);
}

void
cordon_proc_descendants (pid_t root,
                         CordonPidList *out)
{
  size_t first = out->len;

  if (cordon_proc_children (root, out) != 0)
    {
      cordon_proc_children_by_scan (root, 1, out);
      return;
    }
  for (size_t i = first; i < out->len && out->len - first + 1 < MAX_DESCENDANTS; i++)
    cordon_proc_children (out->pids[i], out);
}
