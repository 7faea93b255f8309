#!/usr/bin/env python3
"""Finds the inputs of each kind in a study folder and plans one output per input (conventions §5).

Used by `study.mk` (`make study`) and by `workflow/Snakefile`. For make it writes, under OUT/.study/:
  rules.mk          one rule per input, the outputs per kind (rewritten only when the set of inputs changes)
  <kind>.list       the kind's inputs, one `relative path<TAB>output` a line (rewritten only when it changes)
  inputs/<kind>/…   symlinks with make-safe names to the real inputs (file names may hold spaces and parentheses,
                    which make cannot name; make follows the symlinks for the inputs' modification times)
It prints `ok` and the outputs of the inputs whose `<output>.failed` stamp is newer than the input (and its
companions): for those make takes the stamp as the result, so the next run is a no-op until that input changes.

Usage: study_discover.py make STUDY OUT BIN    (writes the files above)
       study_discover.py list STUDY            (prints `kind<TAB>relative path` lines)
"""
import os
import re
import sys

# kind -> (tool, extra arguments)
TOOLS = {
    "brainiac": ("bt-decode", []),
    "interactlog": ("ilog-parse", []),
    "braintracker": ("rt-stats", []),
    "mynd": ("mynd-parse", []),
    "mindaffect": ("nt-analyze", []),
}
KINDS = list(TOOLS)

R_EXPORT_HEADS = ('"when","condition"', '"","when","condition"')


def kind_of(folder, name):
    """The kind of the file `name` in `folder`, or None when it is not a study input."""
    if name.endswith(".bin"):
        return "brainiac"
    if name.endswith(".txt") and name.startswith("mindaffectBCI_"):
        return "mindaffect"
    if name.endswith(".txt") and re.search(r"\(Trial[^)]*\)", name):
        return "interactlog"
    if name.endswith(".csv"):
        if name.startswith("BrainTrackerResultsFile"):
            return "braintracker"
        try:
            with open(os.path.join(folder, name), "rb") as f:
                head = f.read(64).lstrip(b"\xef\xbb\xbf").decode("utf-8", "replace")
        except OSError:
            return None
        if head.startswith(R_EXPORT_HEADS):
            return "braintracker"
        return None
    if (name.startswith("q_") and name.endswith(".json")) or (name.startswith("r_") and name.endswith(".hdf")):
        return "mynd"
    return None


def discover(study, exclude=None):
    """[(kind, relative path)] sorted; hidden folders and the `exclude` folder (the output) are skipped."""
    study = os.path.abspath(study)
    exclude = os.path.abspath(exclude) if exclude else None
    found = []
    for folder, dirs, files in os.walk(study):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and os.path.join(folder, d) != exclude)
        for name in sorted(files):
            if name.startswith("."):
                continue
            kind = kind_of(folder, name)
            if kind:
                found.append((kind, os.path.relpath(os.path.join(folder, name), study)))
    return sorted(found)


def safe_name(rel):
    """A name for the output that make and shells take as is: anything but [A-Za-z0-9._+/-] becomes `_`."""
    return re.sub(r"[^A-Za-z0-9._+/-]", "_", rel)


def plan(study, out):
    """[(kind, rel, id, companions)]: id is the make-safe relative path (unique within a kind)."""
    entries, used = [], set()
    for kind, rel in discover(study, exclude=out):
        base = safe_name(rel)
        ident, n = base, 1
        while (kind, ident) in used:
            n += 1
            ident = f"{base}~{n}"
        used.add((kind, ident))
        companions = []
        if kind == "interactlog":
            companion = os.path.join(os.path.dirname(rel), "InteractLog.json")
            if os.path.exists(os.path.join(study, companion)):
                companions.append(companion)
        entries.append((kind, rel, ident, companions))
    return entries


def output_path(out, kind, ident):
    return os.path.join(out, kind, ident + ".h5")


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_lists(study, out, entries):
    """OUT/.study/<kind>.list for every kind (rewritten only when the set of inputs changes)."""
    for kind in KINDS:
        lines = "".join(f"{rel}\t{output_path(out, k, ident)}\n" for k, rel, ident, _ in entries if k == kind)
        write_if_changed(os.path.join(out, ".study", kind + ".list"), lines)


def link(target, path):
    if os.path.islink(path) and os.readlink(path) == target:
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        os.remove(path)
    os.symlink(target, path)


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def make_quote(s):
    return s.replace("$", "$$")


def failed_is_fresh(failed, sources):
    try:
        stamp = os.stat(failed).st_mtime_ns
        return all(os.stat(s).st_mtime_ns <= stamp for s in sources)
    except OSError:
        return False


def write_make_rules(study, out, bin_dir):
    study, out = os.path.abspath(study), os.path.abspath(out)
    entries = plan(study, out)
    write_lists(study, out, entries)
    links_root = os.path.join(out, ".study", "inputs")
    wanted = set()
    rules, outputs, fresh_failed = [], {k: [] for k in KINDS}, []
    for kind, rel, ident, companions in entries:
        tool, extra = TOOLS[kind]
        output = output_path(out, kind, ident)
        sources = [os.path.join(study, rel)] + [os.path.join(study, c) for c in companions]
        if failed_is_fresh(output + ".failed", sources):
            fresh_failed.append(output)
        prereqs = []
        for i, source in enumerate(sources):
            name = os.path.join(links_root, kind, ident + ("" if i == 0 else f".companion{i}"))
            link(source, name)
            wanted.add(name)
            prereqs.append(name)
        outputs[kind].append(output)
        args = " ".join(sh_quote(a) for a in extra)
        rules.append(
            f"{output}: {' '.join(prereqs)} | $(STUDY_TOOLS)\n"
            f"\t@$(STUDY_RUN) {sh_quote(bin_dir + '/' + tool)} {make_quote(sh_quote(study))} "
            f"{make_quote(sh_quote(rel))} {output} {make_quote(args)}\n")
    # Drop symlinks of inputs that are gone.
    if os.path.isdir(links_root):
        for folder, _, files in os.walk(links_root):
            for name in files:
                path = os.path.join(folder, name)
                if path not in wanted:
                    os.remove(path)
    text = ["# Written by scripts/study_discover.py; do not edit.\n"]
    for kind in KINDS:
        text.append(f"STUDY_OUTPUTS_{kind} := {' '.join(outputs[kind])}\n")
    text.append("\n")
    text.extend(rules)
    write_if_changed(os.path.join(out, ".study", "rules.mk"), "".join(text))
    return fresh_failed


def main(argv):
    if len(argv) == 5 and argv[1] == "make":
        fresh_failed = write_make_rules(argv[2], argv[3], os.path.abspath(argv[4]))
        print(" ".join(["ok"] + fresh_failed))
    elif len(argv) == 3 and argv[1] == "list":
        for kind, rel in discover(argv[2]):
            print(f"{kind}\t{rel}")
    else:
        sys.stderr.write(__doc__)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
