"""Author errors: collected in one pass, printed as ``path:line: message`` with the line, counted."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


def shown(path: Path) -> str:
    """A path as the author typed it: relative to the working folder where possible."""
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


@dataclass(frozen=True, order=True)
class AuthorError:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{shown(self.path)}:{self.line}: {self.message}"

    def report(self) -> str:
        """The message and the offending line, as the author sees it in an editor."""
        try:
            text = self.path.read_text(encoding="utf-8").splitlines()[self.line - 1]
        except (OSError, IndexError, UnicodeDecodeError):
            return str(self)
        return f"{self}\n    {self.line:>4} | {text}"


class Problems:
    """A collector that every stage appends to; the CLI prints them all and aborts once."""

    def __init__(self):
        self.items: list[AuthorError] = []

    def add(self, path: Path, line: int, message: str) -> None:
        self.items.append(AuthorError(Path(path), line, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def sorted(self) -> list[AuthorError]:
        return sorted(set(self.items))

    def report(self) -> str:
        lines = [e.report() for e in self.sorted()]
        n = len(lines)
        lines.append(f"{n} error{'s' if n != 1 else ''} in entries; nothing was written.")
        return "\n".join(lines)


class BuildFailed(Exception):
    """Raised with the problems that stop a build or a check."""

    def __init__(self, problems: Problems):
        super().__init__(f"{len(problems)} errors")
        self.problems = problems
