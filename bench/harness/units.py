"""The systemd units of deploy/, read as systemd reads them, so that a test or a bench
starts each process with the very command its unit gives (docs/deploy.md).

Only what deploy/'s units use is understood: ``Key=value`` lines in sections, repeated
keys (an empty value resets the list, as in systemd), ``EnvironmentFile=`` (``-`` for
an optional file), ``Environment=``, and in a command ``${NAME}`` (its value, within a
word) and ``$NAME`` alone (its value split on whitespace). Anything else systemd would
expand (``%`` specifiers, ``-@+!`` prefixes on a command) is refused, so a unit cannot
grow a feature this reader silently gets wrong.

The paths a unit names on the server (the checkout in /srv/prefscore, /etc/prefscore)
are mapped to the places a test gives (``PathMap``).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
# The PATH systemd gives a service (systemd.exec(5), "Environment variables in spawned
# processes"), and the locale a Debian server's default gives it.
SYSTEMD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_VARIABLE = re.compile(r"\$\{(\w+)\}")
_ALONE = re.compile(r"\$(\w+)")


class UnitError(ValueError):
    """A unit or environment file this reader does not understand."""


@dataclass(frozen=True)
class PathMap:
    """Server paths (prefixes) and where they are on this machine."""

    places: dict[str, Path] = field(default_factory=dict)

    def __call__(self, text: str) -> str:
        for server, here in self.places.items():
            if text == server or text.startswith(server + "/"):
                return str(here) + text[len(server) :]
        return text


@dataclass(frozen=True)
class Unit:
    name: str
    sections: dict[str, list[tuple[str, str]]]

    def values(self, section: str, key: str) -> list[str]:
        """Every value of ``key``, in order; an empty assignment clears those before it."""
        found: list[str] = []
        for name, value in self.sections.get(section, []):
            if name == key:
                found = [] if value == "" else [*found, value]
        return found

    def value(self, section: str, key: str, default: str | None = None) -> str | None:
        values = self.values(section, key)
        return values[-1] if values else default

    def environment(self, paths: PathMap, base: dict[str, str]) -> dict[str, str]:
        """The service's environment: ``base`` (what systemd sets), then Environment=,
        then each EnvironmentFile= in order (systemd reads the files last)."""
        env = dict(base)
        for line in self.values("Service", "Environment"):
            for word in shlex.split(line):
                name, _, value = word.partition("=")
                env[name] = value
        for entry in self.values("Service", "EnvironmentFile"):
            optional = entry.startswith("-")
            path = Path(paths(entry.removeprefix("-")))
            if optional and not path.exists():
                continue
            env.update(read_environment_file(path))
        return env

    def commands(self, key: str, env: dict[str, str], paths: PathMap) -> list[list[str]]:
        """Each ``key`` line (ExecStart=…) as the argument list systemd would run."""
        return [expand(line, env, paths) for line in self.values("Service", key)]

    def working_directory(self, paths: PathMap) -> Path | None:
        directory = self.value("Service", "WorkingDirectory")
        return Path(paths(directory)) if directory else None


def read_unit(path: Path) -> Unit:
    """A unit file's sections; comments (``#``, ``;``) and blank lines dropped."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for number, line in enumerate(_joined_lines(path.read_text()), 1):
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        key, equals, value = line.partition("=")
        if current is None or not equals:
            raise UnitError(f"{path.name}:{number}: not a Key=value line in a section: {line}")
        current.append((key.strip(), value.strip()))
    return Unit(path.name, sections)


def _joined_lines(text: str) -> list[str]:
    """Lines with systemd's trailing-backslash continuations joined."""
    lines: list[str] = []
    pending = ""
    for line in text.splitlines():
        if line.rstrip().endswith("\\") and not line.lstrip().startswith(("#", ";")):
            pending += line.rstrip()[:-1] + " "
            continue
        lines.append(pending + line)
        pending = ""
    if pending:
        lines.append(pending)
    return lines


def read_environment_file(path: Path) -> dict[str, str]:
    """``NAME=value`` lines, as systemd's EnvironmentFile= reads them: comments and blank
    lines skipped, one pair of surrounding quotes removed."""
    env: dict[str, str] = {}
    for number, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        name, equals, value = line.partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise UnitError(f"{path}:{number}: not a NAME=value line: {raw}")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        env[name] = value
    return env


def expand(line: str, env: dict[str, str], paths: PathMap) -> list[str]:
    """An Exec line as systemd runs it: words, ``${NAME}`` and ``$NAME`` expanded."""
    if "%" in line:
        raise UnitError(f"a specifier (%) this reader does not expand: {line}")
    if line[:1] in "-@+!:":
        raise UnitError(f"a command prefix this reader does not honour: {line}")
    argv: list[str] = []
    for word in shlex.split(line):
        alone = _ALONE.fullmatch(word)
        if alone:
            argv += _lookup(env, alone.group(1), line).split()
            continue
        argv.append(paths(_VARIABLE.sub(lambda m: _lookup(env, m.group(1), line), word)))
    return argv


def _lookup(env: dict[str, str], name: str, line: str) -> str:
    # systemd expands an unset variable to nothing; here that is a mistake to report.
    if name not in env:
        raise UnitError(f"${name} is set by no Environment= or EnvironmentFile=: {line}")
    return env[name]


def service_base(home: Path, user: str) -> dict[str, str]:
    """What systemd itself puts in a service's environment (User= set)."""
    return {"PATH": SYSTEMD_PATH, "LANG": "C.UTF-8", "HOME": str(home), "USER": user,
            "LOGNAME": user}  # fmt: skip


def units() -> dict[str, Unit]:
    """Every unit of deploy/, by file name."""
    return {
        path.name: read_unit(path)
        for path in sorted(DEPLOY.iterdir())
        if path.suffix in (".service", ".timer", ".target")
    }
