#!/usr/bin/env python3
"""Writes what the build derives from the built `parley` for installing it (cmake/install.cmake):

  OUT/man/man1/parley.1.gz           from `parley --help`: every verb, its synopsis and summary
  OUT/man/man1/parley-VERB.1.gz      from `parley VERB --help`, one page per verb that has help
  OUT/completions/parley             `parley completions bash`
  OUT/completions/_parley            `parley completions zsh`
  OUT/changelog.Debian.gz            packaging/changelog.Debian, compressed (with --changelog)

The pages are written from the binary's own help, so they never disagree with it. Everything is
gzipped like `gzip -9n` (no name, no time stamp): what Debian policy wants, and reproducible.

  scripts/package_docs.py PARLEY OUT [--changelog FILE] [--date YYYY-MM-DD]
"""
import argparse
import gzip
import os
import re
import subprocess
import sys

PAGE_DATE_ENV = "SOURCE_DATE_EPOCH"

DESCRIPTION = """\
Parley is a runtime for teams of LLM agents that work in hierarchical dialogs with humans in the
loop. Every step of every dialog is written to an append-only event log (SQLite) in the data
directory, so a kill at any moment loses nothing that was acknowledged.
"""

ENVIRONMENT = [
    ("OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY",
     "the model providers' keys and endpoints, as the team file names them; a team whose variables "
     "are unset may fall back to its scripted model"),
    ("PARLEY_TOKEN", "serve: the API token when neither --token nor --users is given; it is not printed"),
    ("PARLEY_WEB_ROOT", "serve: the web UI's folder when --web is not given"),
]

FILES = [
    ("./.parley/", "the data directory when --data is not given"),
    ("/usr/share/parley/web/", "the web UI that serve finds beside its binary (PREFIX/share/parley/web)"),
    ("/usr/share/parley/examples/demo/", "the demo team: team.yaml, its scripted model and its workspace"),
]


def troff(text):
    """Text for a troff text line: backslashes and dashes escaped, no control character at the start."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    if text.startswith((".", "'")):
        text = "\\&" + text
    return text


def run_help(parley, *args):
    done = subprocess.run([parley, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"package_docs: `{' '.join([parley, *args])}` exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def parse_full_help(text):
    """(verbs as [(verb, synopsis, summary)], the common-options lines) from `parley --help`."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("usage: parley"):
        sys.exit("package_docs: `parley --help` does not start with 'usage: parley'")
    verbs, common, i = [], [], 1
    while i < len(lines):
        line = lines[i]
        if line.startswith("  parley ") and i + 1 < len(lines) and lines[i + 1].startswith("      "):
            synopsis = line[len("  parley "):]
            verbs.append((synopsis.split(" ", 1)[0], synopsis, lines[i + 1].strip()))
            i += 2
        else:
            common.append(line.strip())
            i += 1
    if not verbs:
        sys.exit("package_docs: found no verbs in `parley --help`")
    return verbs, common


def header(name, section_title, date, version):
    # No hyphenation and a ragged right margin: flags such as --allow-data-in-workspace stay whole.
    return [f'.TH {name.upper()} 1 "{date}" "parley {version}" "{section_title}"', ".nh", ".ad l"]


def main_page(verbs, common, date, version):
    out = header("parley", "User Commands", date, version)
    out += [".SH NAME", "parley \\- a runtime and server for teams of LLM agents", ".SH SYNOPSIS",
            ".B parley", ".I verb", "[\\fIoptions\\fR]", ".br", ".B parley \\-\\-help", ".br",
            ".B parley", ".I verb", ".B \\-\\-help", ".SH DESCRIPTION"]
    out += [troff(line) for line in DESCRIPTION.splitlines()]
    out += [".PP", troff("Each verb and what it takes (the same as parley --help):"), ".SH VERBS"]
    for _verb, synopsis, summary in verbs:
        out += [".TP", f"\\fBparley\\fR {troff(synopsis)}", troff(summary)]
    out += [".SH COMMON OPTIONS"]
    for line in common:
        if line.startswith("common options: "):
            line = line[len("common options: "):]
        out += [troff(line)]
    out += [".SH EXIT STATUS", "0 ok, 2 bad usage or configuration, 1 runtime failure; every error is one line",
            "on standard error naming what was wrong.", ".SH ENVIRONMENT"]
    for name, text in ENVIRONMENT:
        out += [".TP", f"\\fB{troff(name)}\\fR", troff(text)]
    out += [".SH FILES"]
    for name, text in FILES:
        out += [".TP", f"\\fI{troff(name)}\\fR", troff(text)]
    pages = sorted({verb for verb, _s, _m in verbs if verb != "version"})
    out += [".SH SEE ALSO", ",\n".join(f".BR parley\\-{troff(verb)} (1)" for verb in pages)]
    return "\n".join(out) + "\n"


def verb_page(verb, help_text, date, version):
    usage = [line for line in help_text.splitlines() if line.strip()]
    synopses = [re.sub(r"^(usage:)?\s*parley ", "", line) for line in usage if re.match(r"^(usage:)?\s*parley ", line)]
    summaries = [line.strip() for line in usage if not re.match(r"^(usage:)?\s*parley ", line)]
    out = header(f"parley-{verb}", "User Commands", date, version)
    out += [".SH NAME", f"parley\\-{troff(verb)} \\- {troff(summaries[0] if summaries else verb)}", ".SH SYNOPSIS"]
    for i, synopsis in enumerate(synopses):
        if i:
            out += [".br"]
        out += [f"\\fBparley\\fR {troff(synopsis)}"]
    out += [".SH DESCRIPTION"]
    for i, summary in enumerate(summaries):
        if i:
            out += [".PP"]
        out += [troff(summary[0].upper() + summary[1:] + ("" if summary.endswith(".") else "."))]
    out += [".PP", troff(f"parley {verb} --help prints this synopsis; parley(1) describes the common options,"),
            troff("the exit status and the environment."), ".SH SEE ALSO", ".BR parley (1)"]
    return "\n".join(out) + "\n"


def write_gz(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = text.encode() if isinstance(text, str) else text
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
        gz.write(data)


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def page_date(explicit):
    if explicit:
        return explicit
    import datetime
    epoch = os.environ.get(PAGE_DATE_ENV)
    when = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch else \
        datetime.datetime.now(datetime.timezone.utc)
    return when.strftime("%Y-%m-%d")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("parley")
    parser.add_argument("out")
    parser.add_argument("--changelog")
    parser.add_argument("--date", help="the pages' date (default: $SOURCE_DATE_EPOCH, else today)")
    args = parser.parse_args()

    version = run_help(args.parley, "--version").split()[-1]
    date = page_date(args.date)
    verbs, common = parse_full_help(run_help(args.parley, "--help"))
    man1 = os.path.join(args.out, "man", "man1")
    # A verb that is gone leaves no stale page behind.
    if os.path.isdir(man1):
        for name in os.listdir(man1):
            os.remove(os.path.join(man1, name))
    write_gz(os.path.join(man1, "parley.1.gz"), main_page(verbs, common, date, version))
    for verb in sorted({verb for verb, _s, _m in verbs}):
        help_text = run_help(args.parley, verb, "--help")
        if not help_text.startswith("usage: parley "):
            continue  # `version --help` prints the version: nothing more to say than parley(1) does
        write_gz(os.path.join(man1, f"parley-{verb}.1.gz"), verb_page(verb, help_text, date, version))
    write_text(os.path.join(args.out, "completions", "parley"), run_help(args.parley, "completions", "bash"))
    write_text(os.path.join(args.out, "completions", "_parley"), run_help(args.parley, "completions", "zsh"))
    if args.changelog:
        with open(args.changelog, "rb") as f:
            write_gz(os.path.join(args.out, "changelog.Debian.gz"), f.read())


if __name__ == "__main__":
    main()
