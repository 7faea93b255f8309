#!/usr/bin/env python3
"""Finds the inputs of a study folder, groups them into units of work and plans one output per unit
(conventions §5, docs/pipelines.md). Used by `study.mk` (`make study`) and by `workflow/Snakefile`.

Units of work keep the tools' cross-file checks: one participant's InteractLog logs (by the header's `Name`) and
one MYND subject's questionnaires and recordings (by the subject UUID of the file names) are one tool run; every
Brainiac capture, BrainTracker file and MindAffect file is a run of its own.

For make it writes, under OUT/.study/:
  rules.mk          one rule per unit, the outputs per kind (rewritten only when the plan changes)
  <kind>.list       the kind's inputs, one `relative path<TAB>output<TAB>participant<TAB>session` a line
  units/<kind>/<id>.json   the unit's signature: tool, tool version, arguments, inputs and the digests of files
                    that options name; rewritten only when it changes, so its time stamp says when the run that
                    made the output became stale
  inputs/<kind>/…   symlinks with make-safe names to the real inputs (file names may hold spaces and parentheses,
                    which make cannot name; make follows the symlinks for the inputs' modification times)
  versions.json     `tool --version` per tool binary (asked again only when the binary changes)
  merge.json        the merge's settings (`merge_skip`)
It prints `ok` and the outputs of the units whose `<output>.failed` stamp is newer than their inputs and signature:
for those make takes the stamp as the result, so the next run is a no-op until that unit changes.

Usage: study_discover.py make STUDY OUT BIN [CONFIG]   (writes the files above)
       study_discover.py list STUDY [CONFIG]           (prints `kind<TAB>unit<TAB>relative path` lines)
       study_discover.py check-config CONFIG           (exit 0 when the configuration is valid)
"""
import fnmatch
import hashlib
import json
import os
import re
import subprocess
import sys

# kind -> tool
TOOLS = {
    "brainiac": "bt-decode",
    "interactlog": "ilog-parse",
    "braintracker": "rt-stats",
    "mynd": "mynd-parse",
    "mindaffect": "nt-analyze",
}
KINDS = list(TOOLS)

R_EXPORT_HEADS = ('"when","condition"', '"","when","condition"')

# The participant is the first folder of the path; the session a later folder named ses-…/session… (BIDS-like
# `sub-01/ses-2/eeg/x.bin`, or `s01/eeg/x.bin` without a session). Inputs at the top of the study have neither.
DEFAULT_PARTICIPANT_PATTERN = r"^(?P<participant>[^/]+)/(?:(?:[^/]+/)*?(?P<session>(?:ses|session)[-_]?[^/]+)/)?"

# Options the pipeline sets itself (or that change what a tool writes): not allowed in the configuration.
RESERVED_OPTIONS = {"o", "output", "format", "table", "quiet", "q", "verbose", "v", "keep-going", "help", "h",
                    "version", "java-companions", "force", "check-protocol", "identify-codes", "print-codes"}
CONFIG_KEYS = {"study", "out", "bin", "options", "participant_pattern", "skip", "merge_skip"}
ANONYMOUS = "Anonymous Participant"


class ConfigError(Exception):
    pass


# --- configuration -----------------------------------------------------------------------------------------------

def load_config(path):
    """The study configuration (YAML, the form Snakemake's --configfile reads) as a dict; {} without a path."""
    if not path:
        return {}
    import yaml
    with open(path, encoding="utf-8") as f:
        config = yaml.safe_load(f) or {}
    if not isinstance(config, dict):
        raise ConfigError(f"{path}: expected a mapping of settings")
    return config


def check_config(config):
    """Raises ConfigError naming the first wrong setting; returns the config."""
    unknown = set(config) - CONFIG_KEYS
    if unknown:
        raise ConfigError(f"unknown setting {sorted(unknown)[0]!r} (known: {', '.join(sorted(CONFIG_KEYS))})")
    options = config.get("options") or {}
    if not isinstance(options, dict):
        raise ConfigError("options: expected a mapping of kind -> {option: value}")
    for kind, opts in options.items():
        if kind not in TOOLS:
            raise ConfigError(f"options: unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
        if opts is None:
            continue
        if not isinstance(opts, dict):
            raise ConfigError(f"options.{kind}: expected a mapping of option -> value")
        for name, value in opts.items():
            flag = str(name).replace("_", "-").lstrip("-")
            if flag in RESERVED_OPTIONS:
                raise ConfigError(f"options.{kind}.{name}: set by the pipeline, not by the configuration")
            if isinstance(value, (dict, list)):
                raise ConfigError(f"options.{kind}.{name}: expected a single value (text, number, true/false)")
    patterns = config.get("participant_pattern")
    if patterns is not None:
        table = patterns if isinstance(patterns, dict) else {"default": patterns}
        for key, pattern in table.items():
            if key != "default" and key not in TOOLS:
                raise ConfigError(f"participant_pattern: unknown kind {key!r}")
            try:
                re.compile(pattern)
            except (re.error, TypeError) as error:
                raise ConfigError(f"participant_pattern: {pattern!r}: {error}")
    for key in ("skip", "merge_skip"):
        value = config.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ConfigError(f"{key}: expected a list of texts")
    return config


def participant_pattern(config, kind):
    patterns = config.get("participant_pattern")
    if isinstance(patterns, dict):
        pattern = patterns.get(kind, patterns.get("default", DEFAULT_PARTICIPANT_PATTERN))
    else:
        pattern = patterns or DEFAULT_PARTICIPANT_PATTERN
    return re.compile(pattern)


def participant_session(config, kind, rel):
    """(participant, session) of an input by the configured pattern (named groups); "" where there is none."""
    match = participant_pattern(config, kind).search(rel)
    if not match:
        return "", ""
    groups = match.groupdict()
    return groups.get("participant") or "", groups.get("session") or ""


def skipped(config, rel):
    return any(fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, pattern.rstrip("/") + "/*")
               for pattern in config.get("skip") or [])


# --- discovery ---------------------------------------------------------------------------------------------------

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


def discover(study, exclude=None, config=None):
    """[(kind, relative path)] sorted; hidden folders, the `exclude` folder (the output) and inputs matching the
    configuration's `skip` patterns are left out."""
    config = config or {}
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
                rel = os.path.relpath(os.path.join(folder, name), study)
                if not skipped(config, rel):
                    found.append((kind, rel))
    return sorted(found)


def safe_name(rel):
    """A name for the output that make and shells take as is: anything but [A-Za-z0-9._+/-] becomes `_`."""
    return re.sub(r"[^A-Za-z0-9._+/-]", "_", rel)


def interactlog_participant(study, rel):
    """The participant that ilog-parse's cross-file check (W_DUPLICATE_TRIAL) uses: the header's `Name`, else the
    file name's part before ` (Trial`."""
    try:
        with open(os.path.join(study, rel), "rb") as f:
            head = f.read(4096).decode("latin-1")
        for line in head.splitlines()[:8]:
            label, sep, value = line.partition(":")
            if sep and label.strip() == "Name":
                return value.strip()
    except OSError:
        pass
    return os.path.basename(rel).split(" (Trial")[0].strip()


def mynd_subject(rel):
    """The subject UUID of a MYND file name (`q_…_<UUID>.json`, `r_…_<UUID>.hdf`)."""
    return os.path.splitext(os.path.basename(rel))[0].rsplit("_", 1)[-1]


def group_key(study, kind, rel):
    """Inputs of a kind with the same key are one unit of work; None: the input is a unit by itself."""
    if kind == "interactlog":
        name = interactlog_participant(study, rel)
        return ("participant", name) if name and name != ANONYMOUS else None
    if kind == "mynd":
        return ("subject", mynd_subject(rel))
    return None


# --- options and signatures --------------------------------------------------------------------------------------

def option_args(options):
    args = []
    for name, value in options.items():
        flag = "--" + str(name).replace("_", "-").lstrip("-")
        if value is True:
            args.append(flag)
        elif value is None or value is False:
            continue
        else:
            args += [flag, str(value)]
    return args


def find_definitions(study, rels):
    """A `definitions` folder holding *.json beside the unit's questionnaires, or in a folder above them (up to the
    study folder): the MYND app's questionnaire definitions, passed as --definitions."""
    for rel in rels:
        folder = os.path.dirname(rel)
        while True:
            candidate = os.path.join(folder, "definitions") if folder else "definitions"
            path = os.path.join(study, candidate)
            if os.path.isdir(path) and any(n.endswith(".json") for n in os.listdir(path)):
                return candidate
            if not folder:
                break
            folder = os.path.dirname(folder)
    return None


def unit_args(study, config, kind, rels):
    options = dict((config.get("options") or {}).get(kind) or {})
    if kind == "mynd" and "definitions" not in options:
        found = find_definitions(study, [r for r in rels if os.path.basename(r).startswith("q_")])
        if found:
            options["definitions"] = found
    if kind == "mynd" and "definitions" in options and str(options["definitions"]).lower() in ("none", "false"):
        options.pop("definitions")  # `definitions: none` turns the default off
    return option_args(options)


def file_digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def path_digest(path):
    """SHA-256 of a file, or of a folder's files (names and contents, sorted)."""
    if os.path.isfile(path):
        return file_digest(path)
    h = hashlib.sha256()
    for folder, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            full = os.path.join(folder, name)
            h.update(os.path.relpath(full, path).encode() + b"\0" + file_digest(full).encode() + b"\n")
    return h.hexdigest()


def named_files(study, args):
    """{option value: digest} for option values that name an existing file or folder (relative to the study
    folder, where the tools run): their contents decide the output as much as the inputs do."""
    files = {}
    for value in args:
        if value.startswith("--"):
            continue
        path = value if os.path.isabs(value) else os.path.join(study, value)
        if os.path.exists(path):
            files[value] = path_digest(path)
    return files


def tool_version(path, cache):
    """`tool --version`, asked once per binary (path, size, modification time) and kept in `cache`."""
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    key = [st.st_size, st.st_mtime_ns]
    entry = cache.get(path)
    if entry and entry[:2] == key:
        return entry[2]
    try:
        result = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
        version = result.stdout.strip() or f"exit {result.returncode}"
    except OSError as error:
        version = f"unrunnable: {error}"
    cache[path] = key + [version]
    return version


# --- the plan ----------------------------------------------------------------------------------------------------

def plan(study, out, config=None, bin_dir=None, versions=None):
    """The units of work, in kind then path order: dicts with kind, id, inputs (relative paths, sorted), companions,
    tool, args, and (with bin_dir) the signature that decides when the unit's output is stale; and the inputs:
    [(kind, rel, unit id, participant, session)]."""
    config = config or {}
    study = os.path.abspath(study)
    groups, order = {}, []
    for kind, rel in discover(study, exclude=out, config=config):
        key = group_key(study, kind, rel)
        gid = (kind, key) if key else (kind, ("file", rel))
        if gid not in groups:
            groups[gid] = []
            order.append(gid)
        groups[gid].append(rel)
    units, used, inputs = [], set(), []
    for kind, key in order:
        rels = groups[(kind, key)]
        base = safe_name(key[1] if key[0] == "file" else f"by-{key[0]}/{key[1]}")
        ident, n = base, 1
        while (kind, ident) in used:
            n += 1
            ident = f"{base}~{n}"
        used.add((kind, ident))
        companions = []
        if kind == "interactlog":
            for rel in rels:
                companion = os.path.join(os.path.dirname(rel), "InteractLog.json")
                if companion not in companions and os.path.exists(os.path.join(study, companion)):
                    companions.append(companion)
        tool = TOOLS[kind]
        args = unit_args(study, config, kind, rels)
        unit = {"kind": kind, "id": ident, "inputs": rels, "companions": companions, "tool": tool, "args": args}
        if bin_dir is not None:
            version = tool_version(os.path.join(bin_dir, tool), versions if versions is not None else {})
            unit["signature"] = {"tool": tool, "version": version, "args": args, "inputs": rels,
                                 "companions": companions, "files": named_files(study, args)}
        units.append(unit)
        for rel in rels:
            participant, session = participant_session(config, kind, rel)
            inputs.append((kind, rel, ident, participant, session))
    return units, inputs


def output_path(out, kind, ident):
    return os.path.join(out, kind, ident + ".h5")


def signature_path(out, kind, ident):
    return os.path.join(out, ".study", "units", kind, ident + ".json")


def signature_text(signature):
    return json.dumps(signature, sort_keys=True, indent=1) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    return True


def write_lists(out, units, inputs):
    """OUT/.study/<kind>.list for every kind (rewritten only when it changes)."""
    by_id = {(u["kind"], u["id"]): u for u in units}
    for kind in KINDS:
        lines = "".join(f"{rel}\t{output_path(out, k, ident)}\t{participant}\t{session}\n"
                        for k, rel, ident, participant, session in inputs if k == kind and (k, ident) in by_id)
        write_if_changed(os.path.join(out, ".study", kind + ".list"), lines)


def write_signatures(out, units):
    """OUT/.study/units/<kind>/<id>.json for every unit (rewritten only when it changes); stale ones removed."""
    wanted = set()
    for unit in units:
        path = signature_path(out, unit["kind"], unit["id"])
        wanted.add(path)
        write_if_changed(path, signature_text(unit["signature"]))
    root = os.path.join(out, ".study", "units")
    for folder, _, files in os.walk(root):
        for name in files:
            if os.path.join(folder, name) not in wanted:
                os.remove(os.path.join(folder, name))


def read_versions(out):
    try:
        with open(os.path.join(out, ".study", "versions.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def write_versions(out, versions):
    write_if_changed(os.path.join(out, ".study", "versions.json"), json.dumps(versions, sort_keys=True, indent=1) + "\n")


def write_merge_settings(out, config):
    """OUT/.study/merge.json: the merge's settings (the tables not merged), rewritten only when they change."""
    settings = {"skip": sorted(config.get("merge_skip") or [])}
    write_if_changed(os.path.join(out, ".study", "merge.json"), json.dumps(settings, sort_keys=True) + "\n")


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


def run_command(run, bin_dir, study, out, unit):
    """The argument list of scripts/study-run.sh for one unit."""
    return ([run, os.path.join(bin_dir, unit["tool"]), study, output_path(out, unit["kind"], unit["id"])]
            + unit["args"] + ["--"] + unit["inputs"])


def write_make_rules(study, out, bin_dir, config):
    study, out = os.path.abspath(study), os.path.abspath(out)
    versions = read_versions(out)
    units, inputs = plan(study, out, config, bin_dir, versions)
    write_versions(out, versions)
    write_lists(out, units, inputs)
    write_signatures(out, units)
    write_merge_settings(out, config)
    links_root = os.path.join(out, ".study", "inputs")
    wanted = set()
    rules, outputs, fresh_failed = [], {k: [] for k in KINDS}, []
    for unit in units:
        kind, ident = unit["kind"], unit["id"]
        output = output_path(out, kind, ident)
        signature = signature_path(out, kind, ident)
        files = unit["inputs"] + unit["companions"]
        sources = [os.path.join(study, f) for f in files] + [signature]
        if failed_is_fresh(output + ".failed", sources):
            fresh_failed.append(output)
        prereqs = []
        for i, source in enumerate(files):
            name = os.path.join(links_root, kind, ident + ("" if i == 0 else f".input{i}"))
            link(os.path.join(study, source), name)
            wanted.add(name)
            prereqs.append(name)
        outputs[kind].append(output)
        command = run_command("$(STUDY_RUN)", bin_dir, study, out, unit)
        rules.append(f"{output}: {' '.join(prereqs)} {signature} | $(STUDY_TOOLS)\n"
                     f"\t@{command[0]} " + " ".join(make_quote(sh_quote(a)) for a in command[1:]) + "\n")
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
    try:
        if len(argv) in (5, 6) and argv[1] == "make":
            config = check_config(load_config(argv[5] if len(argv) == 6 else None))
            fresh_failed = write_make_rules(argv[2], argv[3], os.path.abspath(argv[4]), config)
            print(" ".join(["ok"] + fresh_failed))
        elif len(argv) in (3, 4) and argv[1] == "list":
            config = check_config(load_config(argv[3] if len(argv) == 4 else None))
            study = os.path.abspath(argv[2])
            _, inputs = plan(study, None, config)
            for kind, rel, ident, participant, session in inputs:
                print(f"{kind}\t{ident}\t{rel}\t{participant}\t{session}")
        elif len(argv) == 3 and argv[1] == "check-config":
            check_config(load_config(argv[2]))
        else:
            sys.stderr.write(__doc__)
            return 64
    except (ConfigError, OSError) as error:
        sys.stderr.write(f"study: error: configuration: {error}\n")
        return 78
    except Exception as error:  # yaml's errors
        if type(error).__module__.startswith("yaml"):
            sys.stderr.write(f"study: error: configuration: {error}\n")
            return 78
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
