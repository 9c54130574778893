#!/usr/bin/env python3
"""Checks the documents and man pages as installed (tests/install_test.sh calls it after
`cmake --install` into PREFIX):

- every relative link and image of every installed Markdown or HTML document resolves to an
  installed file (through the installed symbolic links, as a reader's browser or viewer would),
  and every #anchor to a heading of the document it names (its GitHub-style id);
- no installed document or man page names the build tree (build/..., $B/...) or the source
  tree's players/ folder: they name the installed programs and files (docs/installed-names.sed).

    installed_docs.py PREFIX

PREFIX may also be the usr/ folder of an unpacked Debian package (dpkg-deb -x), whose man pages
are gzipped.
"""
import gzip
import os
import re
import sys

DOCS = "share/doc/bananagrams-host"
MAN = "share/man/man1"

# What a clone's reader says and an installed document must not: the build tree's programs and
# files, a document's B=build variable, the source tree's players folder.
FORBIDDEN = [
    (re.compile(r"\bbuild/"), "a build tree path"),
    (re.compile(r"\$B/"), "a build tree path ($B)"),
    (re.compile(r"(?<![\w./-])players/\w"), "a path into the source tree's players/"),
]

MARKDOWN_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_LINK = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""", re.I)


def without_code_blocks(markdown):
    """The Markdown without its fenced and indented code blocks."""
    markdown = re.sub(r"^( *)(```|~~~).*?^\1\2[ \t]*$", "", markdown, flags=re.S | re.M)
    return re.sub(r"(?m)^(?: {4}|\t).*$", "", markdown)


def without_code(markdown):
    """The Markdown without its code blocks and code spans, where a link is only text."""
    return re.sub(r"(`+)(?:(?!\1).)+?\1", "", without_code_blocks(markdown), flags=re.S)


def slug(heading):
    """A heading's id as GitHub (and the installed documents' readers) makes it."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.replace("`", "").lower())
    return text.replace(" ", "-")


def anchors(path):
    """Every id a document's headings have (a repeated one gets -1, -2...)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    seen, found = {}, set()
    for heading in re.findall(r"(?m)^#{1,6}[ \t]+(.+?)[ \t]*#*$", without_code_blocks(text)):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else "%s-%d" % (base, count))
    for anchor in re.findall(r"""\bid\s*=\s*["']([^"']+)["']""", text):
        found.add(anchor)
    return found


def check_links(prefix, problems):
    docs = os.path.join(prefix, DOCS)
    checked = 0
    for folder, _, files in os.walk(docs):  # the examples link is not followed: no documents
        for name in sorted(files):
            path = os.path.join(folder, name)
            if name.endswith(".md"):
                with open(path, encoding="utf-8") as f:
                    targets = MARKDOWN_LINK.findall(without_code(f.read()))
            elif name.endswith((".html", ".htm")):
                with open(path, encoding="utf-8") as f:
                    targets = HTML_LINK.findall(f.read())
            else:
                continue
            where = os.path.relpath(path, prefix)
            for target in targets:
                if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                    continue  # an address on the web, mailto:...: not a file of the package
                checked += 1
                file_part, _, anchor = target.partition("#")
                linked = os.path.normpath(os.path.join(folder, file_part)) if file_part else path
                if not os.path.exists(linked):
                    problems.append("%s: the link %s: %s is not installed"
                                    % (where, target, os.path.relpath(linked, prefix)))
                elif anchor and linked.endswith(".md") and anchor not in anchors(linked):
                    problems.append("%s: the link %s: %s has no heading #%s"
                                    % (where, target, os.path.relpath(linked, prefix), anchor))
    return checked


def man_text(path):
    """A man page's roff (gzipped, as a Debian package has it, or not) as text: break points,
    escaped hyphens and font changes undone."""
    with (gzip.open if path.endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
        roff = f.read()
    roff = roff.replace("\\:", "").replace("\\-", "-").replace("\\%", "")
    return re.sub(r"\\f(\[[^\]]*\]|.)", "", roff)


def check_names(prefix, problems):
    texts = []
    for folder, _, files in os.walk(os.path.join(prefix, DOCS)):
        for name in files:
            if name.endswith((".md", ".html", ".htm")):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    texts.append((path, f.read()))
    for name in os.listdir(os.path.join(prefix, MAN)):
        texts.append((os.path.join(prefix, MAN, name), man_text(os.path.join(prefix, MAN, name))))
    for path, text in texts:
        for pattern, what in FORBIDDEN:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                context = text[max(0, match.start() - 40):match.end() + 40].replace("\n", " ")
                problems.append("%s:%d: %s: ...%s..." % (os.path.relpath(path, prefix), line, what,
                                                         context))
    return len(texts)


def main():
    prefix = sys.argv[1]
    problems = []
    links = check_links(prefix, problems)
    files = check_names(prefix, problems)
    assert links >= 30, "only %d links found: the documents are not where this test looks" % links
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        sys.exit("installed documents: %d problems" % len(problems))
    print("installed documents: %d links resolve; %d documents and man pages name no build-tree "
          "or source-tree path" % (links, files))


if __name__ == "__main__":
    main()
