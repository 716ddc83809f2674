"""Every URL the URL confs define, as one path it answers, and whether it is an event
stream (an async view: games/views/events.py, tournaments/views/events.py).

A path is made by putting a sample value in each converter (``<id:pk>`` -> ``7``) or
regular expression of the route; ``resolve`` then has to lead it back to the same view,
so a sample that another route shadows fails here rather than testing the wrong view.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.resolvers import RegexPattern, RoutePattern

# Tried in order for each converter or regular expression: the first it takes is used.
CANDIDATES = ("7", "sample-slug", "auth", "sample/path")
_PART = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class Sample:
    route: str  # the route as the URL confs write it, prefixes joined
    path: str
    view: Callable[..., Any]

    @property
    def is_stream(self) -> bool:
        return inspect.iscoroutinefunction(self.view)


def samples() -> list[Sample]:
    return [_sample(patterns, view) for patterns, view in _walk(get_resolver(), ())]


def _walk(resolver: URLResolver, prefix: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            yield from _walk(entry, (*prefix, entry.pattern))
        elif isinstance(entry, URLPattern):
            yield (*prefix, entry.pattern), entry.callback


def _sample(patterns: tuple[Any, ...], view: Callable[..., Any]) -> Sample:
    route = "".join(str(pattern) for pattern in patterns)
    path = "/" + "".join(_fill(pattern) for pattern in patterns)
    found = resolve(path).func
    if found is not view:
        raise AssertionError(f"the sample {path} of {route} resolves to {found}, not {view}")
    return Sample(route, path, view)


def _fill(pattern: Any) -> str:
    if isinstance(pattern, RoutePattern):
        route = str(pattern)

        def value(part: re.Match[str]) -> str:
            converter = pattern.converters[part.group("name")]
            return _first(lambda text: re.fullmatch(converter.regex, text) is not None, route)

        return _PART.sub(value, route)
    if isinstance(pattern, RegexPattern):
        return _regex_sample(pattern.regex.pattern)
    raise AssertionError(f"a URL pattern of a kind this sampler does not know: {pattern!r}")


def _regex_sample(regex: str) -> str:
    """A path for a route written as a regular expression (the admin's): each named group
    given a candidate it takes, the anchors dropped."""
    groups = re.compile(r"\(\?P<\w+>([^()]*)\)")
    text = groups.sub(
        lambda g: _first(lambda t: re.fullmatch(g.group(1), t) is not None, regex), regex
    )
    text = text.removeprefix("^").removesuffix("$")
    if not re.fullmatch(regex, text):
        raise AssertionError(f"no sample for the regular expression {regex}")
    return text


def _first(takes: Callable[[str], bool], route: str) -> str:
    for candidate in CANDIDATES:
        if takes(candidate):
            return candidate
    raise AssertionError(f"no sample value fits a part of {route}: add one to CANDIDATES")
