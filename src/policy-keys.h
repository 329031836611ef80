/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policy-keys: the key table, one line per key, from which policy.h
 * makes the CordonKey enum and policy.c the table that parse, check,
 * compile, explain and tests/man.test read. A section exists when a key
 * names it. Adding a key is a line here, the compile step that uses it
 * and its entry in cordon.policy(5); an enum key's words are given here
 * (CORDON_WORDS), their meaning as a C enum in policy.h.
 *
 *   K (ID, section, key, is_list, TYPE, words, default, max, summary)
 *
 * ID names CORDON_KEY_ID; TYPE is a CordonValueType without its prefix;
 * default and max apply to BOOL, ENUM (an index into words), UINT, SIZE
 * and PERCENT. */
#pragma once

#define CORDON_WORDS(...) ((const char * const[]) { __VA_ARGS__, NULL })
/* Index i is the namespace bit 1 << i. */
#define CORDON_NAMESPACE_WORDS CORDON_WORDS ("user", "ipc", "pid", "net", "uts", "cgroup")
/* [cache] use=: src/cache.c has each one's directories. */
#define CORDON_CACHE_WORDS CORDON_WORDS ("go", "pip", "npm", "cargo", "ccache")

#define CORDON_KEYS(K) \
  K (POLICY_DESCRIPTION, "policy", "description", FALSE, STRING, NULL, 0, 0, \
     "what the policy is for") \
  K (POLICY_INCLUDE, "policy", "include", TRUE, POLICY_REF, NULL, 0, 0, \
     "policies merged before this one") \
  K (ENV_ALLOW, "environment", "allow", TRUE, ENV_GLOB, NULL, 0, 0, \
     "variables passed from the caller") \
  K (ENV_SET, "environment", "set", TRUE, ENV_ASSIGN, NULL, 0, 0, \
     "variables set by the policy") \
  K (ENV_GIT_IDENTITY, "environment", "git-identity", FALSE, BOOL, NULL, FALSE, 0, \
     "the caller's git user.name and user.email as GIT_AUTHOR_* and GIT_COMMITTER_*") \
  K (FS_ROOT, "filesystem", "root", FALSE, ENUM, CORDON_WORDS ("read-only", "minimal"), \
     CORDON_ROOT_READ_ONLY, 0, "what of the host / the sandbox sees") \
  K (FS_WRITABLE, "filesystem", "writable", TRUE, PATH, NULL, 0, 0, \
     "host paths bound writable") \
  K (FS_WRITABLE_TRY, "filesystem", "writable-try", TRUE, PATH, NULL, 0, 0, \
     "like writable, skipped where absent") \
  K (FS_READ_ONLY, "filesystem", "read-only", TRUE, PATH, NULL, 0, 0, \
     "host paths bound read-only") \
  K (FS_READ_ONLY_TRY, "filesystem", "read-only-try", TRUE, PATH, NULL, 0, 0, \
     "like read-only, skipped where absent") \
  K (FS_TMPFS, "filesystem", "tmpfs", TRUE, PATH, NULL, 0, 0, \
     "empty scratch tmpfs mounts") \
  K (FS_HIDE, "filesystem", "hide", TRUE, PATH, NULL, 0, 0, \
     "host directories shown empty and read-only, but for what the policy binds below") \
  K (FS_HIDE_SIBLINGS, "filesystem", "hide-siblings", FALSE, BOOL, NULL, FALSE, 0, \
     "the directory that holds each writable bind shows only what the policy binds there") \
  K (FS_PROTECT, "filesystem", "protect", TRUE, REL_PATH, NULL, 0, 0, \
     "paths below each writable bind kept read-only (a repository's hooks and config)") \
  K (FS_UNPROTECT, "filesystem", "unprotect", TRUE, REL_PATH, NULL, 0, 0, \
     "protect= paths of included policies left writable") \
  K (SOCKETS_MASK, "sockets", "mask", TRUE, SOCKET, NULL, 0, 0, \
     "host sockets made unreachable") \
  K (SOCKETS_MASK_LISTENING, "sockets", "mask-listening", FALSE, BOOL, NULL, FALSE, 0, \
     "also mask every listening pathname socket") \
  K (SOCKETS_ALLOW, "sockets", "allow", TRUE, SOCKET, NULL, 0, 0, \
     "exceptions to the socket masks") \
  K (SECRETS_MASK, "secrets", "mask", TRUE, PATH_GLOB, NULL, 0, 0, \
     "files and directories hidden") \
  K (NS_UNSHARE, "namespaces", "unshare", TRUE, NAMESPACE, CORDON_NAMESPACE_WORDS, 0, 0, \
     "namespaces made new") \
  K (NS_SHARE, "namespaces", "share", TRUE, NAMESPACE, CORDON_NAMESPACE_WORDS, 0, 0, \
     "namespaces kept shared even where an included policy unshares them") \
  K (NS_NEW_SESSION, "namespaces", "new-session", FALSE, BOOL, NULL, TRUE, 0, \
     "detach from the caller's terminal session") \
  K (NS_DIE_WITH_PARENT, "namespaces", "die-with-parent", FALSE, BOOL, NULL, TRUE, 0, \
     "kill the sandbox when cordon dies") \
  K (NS_HOSTNAME, "namespaces", "hostname", FALSE, STRING, NULL, 0, 0, \
     "the sandbox's hostname (its uts namespace is new)") \
  K (PROC_MODE, "proc", "mode", FALSE, ENUM, CORDON_WORDS ("private", "host-ro", "none"), \
     CORDON_PROC_PRIVATE, 0, "which /proc the sandbox sees") \
  K (PROC_FALLBACK, "proc", "fallback", FALSE, ENUM, CORDON_WORDS ("refuse", "host-ro", "none"), \
     CORDON_FALLBACK_REFUSE, 0, "what to do when a private /proc cannot be mounted") \
  K (LIMITS_TIMEOUT, "limits", "timeout", FALSE, UINT, NULL, 0, 7 * 24 * 3600, \
     "seconds before the sandbox is killed; 0 for none") \
  K (LIMITS_SCRATCH, "limits", "scratch", FALSE, SIZE, NULL, 0, G_GINT64_CONSTANT (1) << 40, \
     "the size of each tmpfs the policy makes, and of /dev/shm") \
  K (LIMITS_FILE_SIZE, "limits", "file-size", FALSE, SIZE, NULL, 0, G_GINT64_CONSTANT (1) << 50, \
     "the largest file a sandbox process may write (RLIMIT_FSIZE)") \
  K (LIMITS_OPEN_FILES, "limits", "open-files", FALSE, UINT, NULL, 0, 1 << 20, \
     "the fds a sandbox process may hold open (RLIMIT_NOFILE)") \
  K (LIMITS_CORE, "limits", "core", FALSE, SIZE, NULL, 0, G_GINT64_CONSTANT (1) << 40, \
     "the largest core dump (RLIMIT_CORE); 0 for none") \
  K (LIMITS_PIDS, "limits", "pids", FALSE, UINT, NULL, 0, 1 << 22, \
     "the processes and threads the sandbox may hold at once") \
  K (LIMITS_MEMORY, "limits", "memory", FALSE, SIZE, NULL, 0, G_GINT64_CONSTANT (1) << 50, \
     "the memory the sandbox's processes may use together (a cgroup)") \
  K (LIMITS_SWAP, "limits", "swap", FALSE, SIZE, NULL, 0, G_GINT64_CONSTANT (1) << 50, \
     "the swap they may use beside memory=; 0 (the default) for none") \
  K (LIMITS_CPU, "limits", "cpu", FALSE, PERCENT, NULL, 0, 100 * 4096, \
     "the CPU time they may take, as a share of one CPU (200% is two)") \
  K (LIMITS_ENFORCE, "limits", "enforce", FALSE, ENUM, CORDON_WORDS ("required", "best-effort"), \
     CORDON_ENFORCE_REQUIRED, 0, "what a limit the host cannot hold does: stop the run, or a named degradation") \
  K (AUDIT_WALK, "audit", "walk", FALSE, BOOL, NULL, TRUE, 0, \
     "after the run, walk the writable paths for what the sandbox left the host") \
  K (AUDIT_ON_FINDING, "audit", "on-finding", FALSE, ENUM, CORDON_WORDS ("warn", "fail", "quarantine"), \
     CORDON_AUDIT_WARN, 0, "what a finding does: named, the run failed (125), or moved aside") \
  K (AUDIT_MAX_ENTRIES, "audit", "max-entries", FALSE, UINT, NULL, 200000, 100000000, \
     "the entries the walk looks at, at most") \
  K (CACHE_USE, "cache", "use", TRUE, ENUM, CORDON_CACHE_WORDS, 0, 0, \
     "tools given a writable cache that cordon keeps for the caller and the policy") \
  K (CACHE_ENABLE, "cache", "enable", FALSE, BOOL, NULL, TRUE, 0, \
     "whether use= binds its caches (--no-cache: false)") \
  K (SECCOMP_PROFILE, "seccomp", "profile", FALSE, ENUM, CORDON_WORDS ("default", "none", "strict"), \
     CORDON_SECCOMP_DEFAULT, 0, "the system-call filter of the sandbox") \
  K (SECCOMP_ALLOW, "seccomp", "allow", TRUE, SYSCALL, NULL, 0, 0, \
     "system calls taken out of the profile") \
  K (SECCOMP_DENY, "seccomp", "deny", TRUE, SYSCALL, NULL, 0, 0, \
     "system calls refused beyond the profile (EPERM)") \
  K (CAPS_KEEP, "capabilities", "keep", TRUE, CAPABILITY, NULL, 0, 0, \
     "capabilities the sandbox keeps") \
  K (IDENTITY_HOST_USER, "identity", "host-user", FALSE, HOST_USER, NULL, CORDON_HOST_USER_AUTO, 0, \
     "the host user a root caller's sandbox runs as")
