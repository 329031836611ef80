# SPDX-License-Identifier: LGPL-2.1-or-later
# report-schema.py SCHEMA REPORTS-DIR MANPAGE: validates, in one process, every
# report the integration tests kept (tests/integration/run-lib.sh: one
# directory per script, and per script of the unprivileged pass) against
# data/report.schema.json, with python3-jsonschema's Draft 2020-12
# validator, and prints TAP. It cannot pass on nothing: no report kept is
# a failure, and so is a collection without the kinds of report the
# suite makes (a command that ran, a cordon verify, a policy error). The
# controls take a real report and break it (a member removed, each in
# turn; one added, at the top and inside; a value outside an enum; a
# timestamp without its milliseconds; another schema_version): the
# schema must refuse each, or it would accept what cordon must not write.
# Last, cordon.1's REPORT documents each member the schema describes.

import copy
import json
import os
import sys

import jsonschema

tap_count = 0


def report(ok, desc, diag=()):
    global tap_count
    tap_count += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", tap_count, desc))
    for line in diag:
        print("# " + line)


def load_reports(top):
    """(script, path, report) for each kept report, sorted by path."""
    found = []
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            path = os.path.join(root, name)
            script = os.path.relpath(path, top).split(os.sep)[0]
            with open(path, "rb") as f:
                found.append((script, path, json.loads(f.read())))
    return found


def errors_of(validator, instance):
    """Each error, as where and what: of a oneOf (an object or null), the
    branch's own error, which names the member at fault."""
    found = []
    for error in validator.iter_errors(instance):
        e = jsonschema.exceptions.best_match([error])
        found.append("%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message[:200]))
    return found


def refused(validator, instance):
    return not validator.is_valid(instance)


def property_names(node):
    """Every member name the schema describes, at any depth."""
    names = set()
    if isinstance(node, dict):
        names.update(node.get("properties", {}) if isinstance(node.get("properties"), dict) else ())
        for v in node.values():
            names |= property_names(v)
    elif isinstance(node, list):
        for v in node:
            names |= property_names(v)
    return names


def page_members(page):
    """From REPORT of cordon.1: the top-level members, in order (the .TP
    tags ".BR name " (type)"" outside any .RS), and every bold word."""
    top, bold, depth, inside, listing, tag = [], set(), 0, False, False, False
    for line in page.splitlines():
        if line.startswith(".SH "):
            inside = line == ".SH REPORT"
            continue
        if not inside:
            continue
        line = line.replace("\\-", "-").replace("\\&", "")
        if line.startswith("The members, always all of them"):
            listing = True
        words = line.split()
        if words[:1] in ([".B"], [".BR"]) and len(words) > 1:
            bold.add(words[1].strip('"'))
        if line == ".RS":
            depth += 1
        elif line == ".RE":
            depth -= 1
        elif line == ".TP":
            tag = True
            continue
        elif tag and listing and depth == 0 and line.startswith(".BR ") and '" (' in line:
            top.append(words[1])
        tag = False
    return top, bold


def main():
    schema_path, top, man_path = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(schema_path) as f:
        schema = json.load(f)
    print("1..13")

    try:
        jsonschema.Draft202012Validator.check_schema(schema)
        report(True, "the schema is a valid draft 2020-12 schema")
    except jsonschema.exceptions.SchemaError as e:
        report(False, "the schema is a valid draft 2020-12 schema", [str(e.message)])
    validator = jsonschema.Draft202012Validator(schema)

    members = list(schema.get("properties", {}))
    report(members == schema.get("required") and schema.get("additionalProperties") is False
           and members[:1] == ["schema_version"],
           "the schema is closed, and requires each of its %d members, schema_version first" % len(members))

    reports = load_reports(top) if os.path.isdir(top) else []
    scripts = sorted(set(s for s, _, _ in reports))
    report(len(reports) > 0, "reports were kept: %d, from %d scripts (%s)"
           % (len(reports), len(scripts), ", ".join(scripts)),
           [] if reports else ["none under %s: did the integration tests run (make check)?" % top])

    kinds = {
        "a command that ran": lambda r: r.get("outcome") == "exited" and r.get("argv"),
        "a cordon verify": lambda r: r.get("outcome") == "verified" and r.get("argv") is None,
        "a policy error": lambda r: r.get("outcome") == "policy-failed",
        "a run whose usage is known": lambda r: isinstance(r.get("usage"), dict),
    }
    missing = [k for k, test in kinds.items() if not any(test(r) for _, _, r in reports)]
    report(not missing, "the reports include %s" % ", ".join(kinds),
           ["none is %s" % k for k in missing])

    documented(schema, man_path)

    bad = []
    for script, path, r in reports:
        for e in errors_of(validator, r):
            bad.append("%s: %s" % (path, e))
    report(reports and not bad, "each of the %d reports validates against the schema" % len(reports), bad[:40])

    # The controls: a real report, broken: of those that validate, the
    # one with the most members known (the first such, in path order).
    valid = [r for _, _, r in reports if validator.is_valid(r)]
    base = max(valid, key=lambda r: sum(v is not None for v in r.values())) if valid else None
    if base is None:
        for desc in ("control: an unchanged report validates",
                     "control: a report without any one of its members is refused, each in turn",
                     "control: a report with a member added at the top is refused",
                     "control: a member added inside a closed object is refused",
                     "control: a value outside an enum is refused",
                     "control: a timestamp without milliseconds, or not in UTC, is refused",
                     "control: another schema_version is refused"):
            report(False, desc, ["no valid report to start from"])
        return

    report(validator.is_valid(copy.deepcopy(base)), "control: an unchanged report validates")

    kept = [m for m in base if not refused(validator, {k: v for k, v in base.items() if k != m})]
    report(len(base) == len(members) and not kept,
           "control: a report without any one of its %d members is refused, each in turn" % len(base),
           ["still valid without %s" % m for m in kept])

    added = copy.deepcopy(base)
    added["extra"] = None
    report(refused(validator, added), "control: a report with a member added at the top is refused")

    inside = []
    for m in ("policy", "durations_ms", "usage", "environment", "limits", "identity"):
        if isinstance(base.get(m), dict):
            r = copy.deepcopy(base)
            r[m]["extra"] = 0
            if not refused(validator, r):
                inside.append(m)
    report(not inside, "control: a member added inside a closed object is refused",
           ["accepted inside %s" % m for m in inside])

    enums = []
    for path in (("outcome",), ("proc",), ("probe", "result"), ("limits", "mechanism"), ("failure",)):
        r = copy.deepcopy(base)
        at = r
        for p in path[:-1]:
            at = at.get(p) if isinstance(at, dict) else None
        if isinstance(at, dict):
            at[path[-1]] = {"reason": "bogus", "message": None} if path == ("failure",) else "bogus"
            if not refused(validator, r):
                enums.append("/".join(path))
    report(not enums, "control: a value outside an enum is refused", ["accepted at %s" % p for p in enums])

    times = []
    for value in ("2024-05-01T12:34:56Z", "2024-05-01T12:34:56.789+02:00", "2024-05-01 12:34:56.789Z"):
        r = copy.deepcopy(base)
        r["started_at"] = value
        if not refused(validator, r):
            times.append(value)
    report(not times, "control: a timestamp without milliseconds, or not in UTC, is refused",
           ["accepted started_at %s" % t for t in times])

    r = copy.deepcopy(base)
    r["schema_version"] = 2
    report(refused(validator, r), "control: another schema_version is refused")


def documented(schema, man_path):
    with open(man_path, encoding="utf-8") as f:
        top, bold = page_members(f.read())
    members = list(schema.get("properties", {}))
    undocumented = sorted(property_names(schema) - bold)
    report(top == members and not undocumented,
           "cordon.1's REPORT documents the %d members in order, and each member within them" % len(members),
           ([] if top == members else ["REPORT lists: %s" % ",".join(top), "the schema has: %s" % ",".join(members)])
           + ["not in bold in REPORT: %s" % n for n in undocumented])


if __name__ == "__main__":
    main()
    sys.exit(0)
