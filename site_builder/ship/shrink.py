"""Our JavaScript and CSS as the site ships them: the comments and the indentation left out.

Our sources explain themselves at length, and a reader's browser fetches every word of it before
the page can act: shipped without comments, an entry page loads a third less of our code.  Every
line break stays (JavaScript's automatic semicolons depend on them), and so does every string,
template literal and regular expression exactly as written; only what lies between tokens goes.
"""

from __future__ import annotations

import re

# Where a "/" begins a regular expression, not a division: after one of these characters...
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^")
# ...or one of these words.
_REGEX_WORDS = {
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
}
_WORD = re.compile(r"[A-Za-z0-9_$]+$")


def _regex_here(code: str) -> bool:
    """Whether a "/" after ``code`` (what precedes it, comments left out) starts a regular expression."""
    before = code.rstrip()
    if not before or before[-1] in _REGEX_AFTER:
        return True
    word = _WORD.search(before)
    return bool(word) and word.group() in _REGEX_WORDS


def _tidy(code: str) -> str:
    """Code between literals: each line without its indentation and trailing spaces, no blank lines."""
    return re.sub(r"[ \t]*(?:\n[ \t]*)+", "\n", code)


def javascript(source: str) -> str:
    """``source`` without its comments, indentation and blank lines, every token as it was."""
    out: list[str] = []  # pieces: code (tidied when flushed) and literals (as they are)
    code: list[str] = []  # the code since the last literal
    braces: list[int] = []  # per open template's ${...}: the depth of braces inside it
    i, n = 0, len(source)

    def flush() -> None:
        out.append(_tidy("".join(code)))
        code.clear()

    def seen() -> str:
        return "".join(out[-1:]) + "".join(code)

    while i < n:
        c = source[i]
        if c == "/" and source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif c == "/" and source.startswith("/*", i):
            end = source.find("*/", i + 2)
            if end < 0:
                raise ValueError("an unclosed comment")
            code.append(" ")
            i = end + 2
        elif c in "'\"":
            j = i + 1
            while j < n and source[j] != c:
                if source[j] == "\n":
                    raise ValueError("a line break in a string")
                j += 2 if source[j] == "\\" else 1
            flush()
            out.append(source[i : j + 1])
            i = j + 1
        elif c == "`" or (c == "}" and braces and braces[-1] == 0):
            if c == "}":
                braces.pop()
            j = i + 1
            while j < n and source[j] != "`" and not source.startswith("${", j):
                j += 2 if source[j] == "\\" else 1
            if j >= n:
                raise ValueError("an unclosed template literal")
            if source[j] == "$":
                braces.append(0)
                j += 1  # the "{" ends the literal's piece; the code inside is code
            flush()
            out.append(source[i : j + 1])
            i = j + 1
        elif c == "/" and _regex_here(seen()):
            j, within = i + 1, False
            while j < n and (source[j] != "/" or within):
                if source[j] == "\n":
                    raise ValueError("a line break in a regular expression")
                if source[j] == "\\":
                    j += 1
                elif source[j] in "[]":
                    within = source[j] == "["
                j += 1
            j += 1
            while j < n and source[j].isalpha():
                j += 1
            flush()
            out.append(source[i:j])
            i = j
        else:
            if braces and c == "{":
                braces[-1] += 1
            elif braces and c == "}":
                braces[-1] -= 1
            code.append(c)
            i += 1
    flush()
    return "".join(out).strip("\n") + "\n"


def css(source: str) -> str:
    """``source`` without its comments, indentation and blank lines."""
    out, i = [], 0
    for literal in re.finditer(r"/\*.*?\*/|\"[^\"\n]*\"|'[^'\n]*'", source, re.S):
        out.append(_tidy(source[i : literal.start()]))
        out.append(" " if literal.group().startswith("/*") else literal.group())
        i = literal.end()
    out.append(_tidy(source[i:]))
    text = "".join(out)
    return "\n".join(line.strip() for line in text.split("\n") if line.strip()) + "\n"
