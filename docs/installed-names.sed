# The documents as installed: the names a clone's reader uses, replaced by the installed ones.
# The documents are written for a clone (build/host, players/..., links between the tree's
# folders); `cmake --install` and the Debian package install copies of them, and man pages made
# of them, passed through this table, so that they name the installed programs and files and
# their links resolve where they are installed. CMake writes the installed data folder (an
# absolute path) for BG_INSTALLED_DATADIR between at signs, and runs the table as `sed -E -z`
# (the whole document as one text, so that a rule may span lines); tests/install_test.sh checks
# what comes out: no build-tree name left, every link resolved. In the documents, a note for
# readers of a clone is a parenthesis that begins "from a clone" or "in a clone" (or, as in the
# programs' --help, "X is build/X in a build tree"): the installed copies leave it out, so the
# text around it must read well without it.

# 1. Notes for readers of a clone, left out: a paragraph's opening note (a sentence of its own:
#    "(From a clone, ...)") with the space after it; any other such note, and --help's "(host is
#    build/host in a build tree, ...)", with the space before it.
s/\n\n\((From|In) a clone[^()]*\)[ \t]*\n?/\n\n/g
s/[ \t]*\n?[ \t]*\(([Ff]rom|[Ii]n) a clone[^()]*\)//g
s/[ \t]*\n?[ \t]*\(([[:alnum:]_]+) is build\/\1[[:space:]]+in[[:space:]]+a[[:space:]]+build[[:space:]]+tree[^()]*\)//g

# 2. The programs by their installed names (a clone's build/X, or $B/X where a document sets
#    B=build); the compiled examples are wherever their reader builds them, as their first lines
#    say.
s/(^|[^[:alnum:]_./-])(build|\$B)\/host([^-_.[:alnum:]]|$)/\1bananagrams-host\3/g
s/(^|[^[:alnum:]_./-])(build|\$B)\/tournament([^-_.[:alnum:]]|$)/\1bananagrams-tournament\3/g
s/(^|[^[:alnum:]_./-])(build|\$B)\/reference_bot([^-_.[:alnum:]]|$)/\1bananagrams-reference-bot\3/g
s/(^|[^[:alnum:]_./-])(build|\$B)\/connect([^-_.[:alnum:]]|$)/\1bananagrams-connect\3/g
s/(^|[^[:alnum:]_./-])(build|\$B)\/arena([^-_.[:alnum:]]|$)/\1bananagrams-arena\3/g
s/(^|[^[:alnum:]_./-])(build|\$B)\/example_player_(cpp|go)([^-_.[:alnum:]]|$)/\1.\/example_player_\3\4/g
s/B=build; //g
#    "`X` (installed as `X`)", which step 2 makes of a sentence that names both, says it once.
s/(`[^`]+`)[[:space:]]+\(installed as[[:space:]]+\1\)/\1/g

# 3. The example players where they are installed (a document that sets P=players too).
s#(^|[^[:alnum:]_./-])players/(example_[[:alnum:]_]+\.(py|js|cpp|go))#\1@BG_INSTALLED_DATADIR@/bananagrams-host/players/\2#g
s#P=players([^[:alnum:]_/]|$)#P=@BG_INSTALLED_DATADIR@/bananagrams-host/players\1#g

# 4. The documents are installed in one folder: docs/X is X there. But for development.md (on
#    building from a clone), which is not installed: a link to it is its text alone, named as
#    the source tree's.
s/\[`docs\/development\.md`\]\([^)]*\)/docs\/development.md (in the source tree)/g
s/\[([^]]*)\]\((\.\.\/|docs\/)*development\.md[^)]*\)/\1/g
s/`docs\/([[:alnum:]_.-]+)`/`\1`/g

# 5. Links, relative to that folder: into it (no docs/ or ../), the example players through its
#    examples link, the word list in the data folder, the licence in the copyright file (which
#    holds it, and the word list's).
s/\]\((\.\.\/|docs\/)+([^)]*)\)/](\2)/g
s/\]\(players\//](examples\//g
s/\]\(wordlist\//](..\/..\/bananagrams-host\/wordlist\//g
s/\]\(LICENSE\)/](copyright)/g
