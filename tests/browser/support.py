"""What the browser tests share: signing in, the deals of a pulka, reading the screen.

The figures a test reads off the screen are compared with the engine's own answer for
the same deals (``scoring.engine.protocol.score_text``), never with numbers typed into
the test.
"""

from __future__ import annotations

import importlib
import json
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from playwright.sync_api import BrowserContext, Page, ViewportSize

from bench.harness.deals import NAMES
from bench.harness.seed import signed_in_session
from scoring.engine.protocol import score_text

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TARGET = 10
DESKTOP = {"width": 1280, "height": 900}
STAKE = "0.5"

# Twelve deals of a Sochi pulka to 10 that never closes it (engine-checked): a made
# game, an all-pass, a failed 7 (two down), a half-whist, a misère, games that pass
# their points on as help once Anna's pulya is closed (deals 5, 6, 9), a game nobody
# whisted, a failed 8. The exact result is fractional, the whole result needs the
# Кодекс 4.2.12 adjustment, and the stake gives money with halves.
TWELVE_DEALS: tuple[dict[str, Any], ...] = (
    {"contract": "6S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
     "tricks": {"Anna": 6, "Boris": 3, "Vera": 1}},
    {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 4, "Vera": 4}},
    {"contract": "7H", "declarer": "Boris", "whists": {"Anna": "whist", "Vera": "whist"},
     "tricks": {"Boris": 5, "Anna": 3, "Vera": 2}},
    {"contract": "6C", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "half"}},
    {"contract": "misere", "declarer": "Anna", "tricks": {"Anna": 0}},
    {"contract": "6D", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
     "tricks": {"Anna": 7, "Boris": 2, "Vera": 1}},
    {"contract": "6NT", "declarer": "Vera", "whists": {"Anna": "pass", "Boris": "pass"}},
    {"contract": "allpass", "tricks": {"Anna": 2, "Boris": 0, "Vera": 8}},
    {"contract": "7S", "declarer": "Anna", "whists": {"Boris": "whist", "Vera": "pass"},
     "tricks": {"Anna": 7, "Boris": 2, "Vera": 1}},
    {"contract": "7H", "declarer": "Boris", "whists": {"Anna": "whist", "Vera": "pass"},
     "tricks": {"Boris": 7, "Anna": 2, "Vera": 1}},
    {"contract": "8C", "declarer": "Vera", "whists": {"Anna": "whist", "Boris": "pass"},
     "tricks": {"Vera": 7, "Anna": 2, "Boris": 1}},
    {"contract": "6S", "declarer": "Boris", "whists": {"Anna": "pass", "Vera": "pass"}},
)  # fmt: skip


# --- the engine's answer ---------------------------------------------------------------


def engine_output(
    deals: tuple[dict[str, Any], ...] | list[dict[str, Any]],
    names: tuple[str, ...] = NAMES,
    target: int = TARGET,
    stake: str | None = STAKE,
) -> dict[str, Any]:
    """What ``manage.py score`` prints for these deals (docs/protocol.md, "Output")."""
    pulka: dict[str, Any] = {
        "convention": "sochi",
        "players": list(names),
        "target": target,
        "deals": list(deals),
    }
    if stake is not None:
        pulka["stake"] = float(stake)
    return score_text(json.dumps(pulka))


# --- the database ----------------------------------------------------------------------


def ensure_presets() -> None:
    """The preset conventions, as their data migrations make them.

    A transactional test (every live-server test) empties the tables when it ends, the
    migration's rows included; the next one puts them back this way.
    """
    for name in ("0002_presets", "0006_presets_peers"):
        importlib.import_module(f"scoring.migrations.{name}").create_presets(apps, None)


def sign_in(context: BrowserContext, base_url: str, user: Any) -> None:
    """Give the browser a session of ``user``, as the sign-in form would."""
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": signed_in_session(user)}
    context.add_cookies([{**cookie, "url": base_url}])  # type: ignore[list-item]


# --- the entry form --------------------------------------------------------------------


def choose_contract(form: Any, contract: str) -> None:
    """Tap a contract (``7S``, ``6``, ``misere``, ``allpass``): one chip of the bidding
    box when table.js built it (the misère and the all-pass are chips of it too), else
    the level's chip and the suit's."""
    level = re.match(r"\d+", contract)
    if form.evaluate("f => typeof htmx !== 'undefined'"):
        form.locator(".bidbox").wait_for()  # table.js builds it once the form is in place
        value, suit = (level.group(0), contract[level.end() :]) if level else (contract, "")
        form.locator(f".bidbox__bid[data-contract='{value}'][data-suit='{suit}']").click()
        return
    form.locator(f"label[for='contract-{level.group(0) if level else contract}']").click()
    if level and contract[level.end() :]:
        form.locator(f"label[for='suit-{contract[level.end() :]}']").click()


def fill_deal(page: Page, facts: dict[str, Any], names: tuple[str, ...] = NAMES) -> None:
    """Tap the deal into the entry form as a player would: chips, then tricks."""
    seat = {name: index for index, name in enumerate(names)}
    form = page.locator("#entry-form")
    choose_contract(form, facts["contract"])
    if "declarer" in facts:
        form.locator(f"label[for='declarer-{seat[facts['declarer']]}']").click()
    for name, word in facts.get("whists", {}).items():
        form.locator(f"label[for='word_{seat[name]}-{word}']").click()
    for name, tricks in facts.get("tricks", {}).items():
        form.locator(f"#tricks_{seat[name]}").fill(str(tricks))


def record_deal(
    page: Page, facts: dict[str, Any], number: int, names: tuple[str, ...] = NAMES
) -> None:
    """Fill in and record deal ``number``; wait until the form asks for the next one."""
    assert page.locator("#entry-form input[name=number]").input_value() == str(number)
    fill_deal(page, facts, names)
    page.locator("#entry-form button[type=submit]").click()
    page.wait_for_function(
        """n => {
            const input = document.querySelector('#entry-form input[name=number]');
            return (input && input.value === String(n))
                || document.querySelector('#entry .form__error, #entry .notice, #entry [role=alert]');
        }""",
        arg=number + 1,
    )
    errors = page.locator("#entry .form__error, #entry .notice, #entry [role=alert]")
    assert errors.count() == 0, f"deal {number} refused: {errors.all_inner_texts()}"


# --- reading the screen ----------------------------------------------------------------

_FRACTIONS = {"½": Fraction(1, 2), "⅓": Fraction(1, 3), "⅔": Fraction(2, 3), "¼": Fraction(1, 4),
              "¾": Fraction(3, 4)}  # fmt: skip


def figure(text: str) -> Fraction:
    """A figure as the pages write it (``−12``, ``45,33``, ``12½``, ``—``) as a number."""
    text = text.strip().replace("\u2212", "-").replace("\xa0", "").replace(" ", "")
    text = text.replace(",", ".").lstrip("+")
    if text in ("", "—"):
        return Fraction(0)
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("-")
    rest = Fraction(0)
    if text and text[-1] in _FRACTIONS:
        rest, text = _FRACTIONS[text[-1]], text[:-1]
    return sign * (Fraction(text or "0") + rest)


def last_of_series(text: str) -> Fraction:
    """The running total a sheet field ends with: ``2.6.10`` -> 10."""
    text = text.strip()
    return figure(text.rsplit(".", 1)[-1] if text not in ("", "—") else text)


def sheet_on_screen(page: Page) -> dict[str, dict[str, Any]]:
    """The sheet's figures from the table beside the drawing (the same figures)."""
    rows = page.evaluate(
        """() => Array.from(document.querySelectorAll('#sheet .visually-hidden > table tbody tr')).map(
            tr => [tr.querySelector('th').textContent,
                   ...Array.from(tr.querySelectorAll('td')).map(td => td.textContent)])"""
    )
    names = [row[0].strip() for row in rows]
    sheet: dict[str, dict[str, Any]] = {}
    for row in rows:
        name, pulya, gora, *whists = (cell.strip() for cell in row)
        sheet[name] = {
            "pulya": last_of_series(pulya),
            "gora": last_of_series(gora),
            "whists": {
                other: last_of_series(value)
                for other, value in zip(names, whists, strict=True)
                if other != name
            },
        }
    return sheet


def engine_sheet(output: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The engine's sheet with every figure exact, to compare with the screen's."""
    return {
        name: {
            "pulya": Fraction(str(row["pulya"])),
            "gora": Fraction(str(row["gora"])),
            "whists": {on: Fraction(str(value)) for on, value in row["whists"].items()},
        }
        for name, row in output["sheet"].items()
    }


def settlement_on_screen(page: Page, kind: str) -> list[Fraction]:
    """One column of the settlement's result table (``exact``, ``whole``, ``money``)."""
    return [figure(text) for text in page.locator(f"[data-result='{kind}']").all_inner_texts()]


# --- accessibility ---------------------------------------------------------------------


# axe-core's violations; and text drawn in the very colour of its background, which
# axe leaves "to review" (it could be meant to be hidden) but is a failure here where
# it is shown: a 1:1 contrast on a visible element.
AXE_JS = """async () => {
  const found = await axe.run(document);
  const node = n => ({target: n.target.join(' '), html: n.html});
  const shown = selector => {
    const el = document.querySelector(selector);
    if (!el || el.closest('.visually-hidden, .skip-link, [hidden]')) return false;
    const box = el.getBoundingClientRect();
    return box.width > 2 && box.height > 2;
  };
  const violations = found.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(node)}));
  found.incomplete.filter(v => v.id === 'color-contrast').forEach(v => {
    const invisible = v.nodes.filter(n => n.any.some(a => /1:1 contrast/.test(a.message))
                                          && shown(n.target.join(' ')));
    if (invisible.length) violations.push({id: v.id, impact: 'serious',
      help: 'text the colour of its background (1:1)', nodes: invisible.map(node)});
  });
  return violations;
}"""


def with_axe(context: BrowserContext) -> None:
    """axe-core in every page the context opens, from the page's first script on.

    Run this way, before the page's own scripts, axe-core costs about 15 ms a page load;
    added to a loaded page (``add_script_tag``) it cost 0.25–0.42 s a check, a fifth of
    the browser suite (docs/benchmarks.md, "The browser suite"). The context needs
    ``bypass_csp=True``: the app's policy rightly refuses a script the app did not serve.
    """
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: run `npm ci` (make test does)")
    context.add_init_script(path=str(AXE))


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """axe-core's violations of these impacts on the page, one line per element.

    The page must come from a context with ``bypass_csp=True``, which the tests'
    ``new_context`` gives axe-core (``with_axe``).
    """
    if page.evaluate("typeof axe") == "undefined":
        raise AssertionError("axe-core is not in this page: open it with bypass_csp=True")
    result = page.evaluate(AXE_JS)
    return [
        f"{v['impact']} {v['id']} ({v['help']}): {node['target']} {node['html'][:160]}"
        for v in result
        if v["impact"] in impacts
        for node in v["nodes"]
    ]


# --- pictures for a person ---------------------------------------------------------------

# A picture asserts nothing, and a full-page one costs about 0.35 s of a busy browser: a
# fifth of the browser suite (docs/benchmarks.md, "The browser suite"). So they are
# taken when asked for, by `make screenshots`, into artifacts/screenshots/.
SCREENSHOTS_WANTED = os.environ.get("PREFSCORE_SCREENSHOTS") == "1"


def screenshot(
    page: Page, path: Path | str, viewport: ViewportSize | None = None, **options: Any
) -> None:
    """Keep a picture of the page at ``path`` when screenshots are asked for, the page
    first resized to ``viewport`` if given (it stays so)."""
    if not SCREENSHOTS_WANTED:
        return
    if viewport is not None:
        page.set_viewport_size(viewport)
    page.screenshot(path=str(path), **options)


# --- a phone in the hand ---------------------------------------------------------------

TAP = 44  # px: the smallest comfortable touch target (prefscore.css --tap)

# The rule, applied alike on every screen. A tap target is every visible
#   button, select, textarea, summary, and input other than a radio or checkbox;
#   radio or checkbox with its label(s): the biggest of those boxes is what the finger hits
#     (a visually hidden chip input is tapped through its label);
#   link, unless it is an inline text link: laid out inline (not a .button) and either
#     inside a paragraph (<p>: a sentence, a breadcrumb, a "see also" line) or beside
#     words of running text in the same element ("No account yet? Sign up"). Links in
#     the header, in navigation lists, cards and button-styled links are counted.
# Its box must be at least TAP px in its smaller dimension. Not counted: elements
# that are hidden, visually hidden (1 px), or off-screen until focused (the skip link).
TAP_TARGETS_JS = """tap => {
  const shown = el => {
    if (el.closest('[hidden], .visually-hidden, .skip-link')) return false;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const box = el.getBoundingClientRect();
    return box.width > 2 && box.height > 2 && box.right > 0 && box.bottom > 0;
  };
  const describe = el => {
    let text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
    text = text.replace(/\\s+/g, ' ').slice(0, 40);
    const id = el.id ? '#' + el.id : '';
    const cls = el.classList.length ? '.' + Array.from(el.classList).join('.') : '';
    const name = el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : '';
    return `${el.tagName.toLowerCase()}${id}${cls}${name} "${text}"`;
  };
  const inlineTextLink = a => getComputedStyle(a).display === 'inline'
    && !a.classList.contains('button')
    && (a.closest('p') !== null || Array.from(a.parentNode.childNodes).some(
      n => n.nodeType === Node.TEXT_NODE && /\\p{L}/u.test(n.textContent)));
  const small = [];
  const check = (el, boxes) => {
    const shownBoxes = boxes.filter(b => b.width > 2 && b.height > 2);
    if (!shownBoxes.length) return;
    const best = shownBoxes.reduce((a, b) => Math.min(a.width, a.height) >= Math.min(b.width, b.height) ? a : b);
    if (Math.min(best.width, best.height) < tap - 0.5)
      small.push(`${describe(el)} ${Math.round(best.width)}×${Math.round(best.height)}`);
  };
  document.querySelectorAll('button, select, textarea, summary, input, a[href]').forEach(el => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'input' && type === 'hidden') return;
    if (tag === 'input' && (type === 'radio' || type === 'checkbox')) {
      if (el.closest('[hidden]')) return;
      const labels = Array.from(el.labels || []).filter(shown);
      const boxes = labels.map(l => l.getBoundingClientRect());
      if (shown(el)) boxes.push(el.getBoundingClientRect());
      if (labels.length || shown(el)) check(labels[0] || el, boxes);
      return;
    }
    if (!shown(el)) return;
    if (tag === 'a' && inlineTextLink(el)) return;
    check(el, [el.getBoundingClientRect()]);
  });
  return small;
}"""

OVERFLOW_JS = """() => {
  const width = window.innerWidth;
  const wide = [];
  if (document.scrollingElement.scrollWidth > width) {
    document.querySelectorAll('main *, header *').forEach(el => {
      const box = el.getBoundingClientRect();
      if (box.right > width + 0.5 && !el.closest('.table-scroll, .visually-hidden, .skip-link')
          && getComputedStyle(el).position !== 'fixed')
        wide.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : ''} right=${Math.round(box.right)}`);
    });
  }
  return {scrollWidth: document.scrollingElement.scrollWidth, innerWidth: width, wide: wide.slice(0, 8)};
}"""

# The drawn sheet at its rendered size: its width, and each text's font size in CSS
# pixels (its font size in the drawing's units times the drawing's scale on screen).
SHEET_SIZE_JS = """() => {
  const svg = document.querySelector('#sheet svg');
  if (!svg) return null;
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  const texts = Array.from(svg.querySelectorAll('text, tspan')).filter(t => t.textContent.trim());
  const sizes = texts.map(t => ({
    text: t.textContent.trim().slice(0, 30),
    cls: t.getAttribute('class') || '',
    px: parseFloat(getComputedStyle(t).fontSize) * scale,
  }));
  return {width: box.width, scale: scale, sizes: sizes};
}"""


def script_word(page: Page, element: str, key: str, count: int | None = None, **values: Any) -> str:
    """A word a page script shows, as the page gives it to the script (a ``data-`` attribute
    of ``element``: templates/games/_network.html, templates/_outbox_words.html) and filled
    in as the script fills it: each ``{name}`` by ``values``; with ``count``, the language's
    plural form chosen by ``Intl.PluralRules`` and ``{count}`` filled, as outbox.js does.
    Walks read these words in one language each; a test of the words reads them in both."""
    return page.evaluate(
        """([element, key, count, values]) => {
            const el = document.querySelector(element);
            if (count !== null) {
                const lang = document.documentElement.lang || "en";
                key = key + "-" + new Intl.PluralRules(lang).select(count);
                values = {...values, count: count};
            }
            let text = el.getAttribute("data-" + key);
            for (const [name, value] of Object.entries(values)) {
                text = text.replace("{" + name + "}", String(value));
            }
            return text;
        }""",
        [element, key, count, values],
    )
