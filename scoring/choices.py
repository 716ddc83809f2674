"""The choices of the convention options that take one of a few values.

Each value is the engine's own (docs/protocol.md, "Convention options"); the label is what
the admin and the player pages show.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class WhistStyle(models.TextChoices):
    GREEDY = "greedy", _("greedy (жлобский)")
    GENTLEMAN = "gentleman", _("gentleman (джентльменский)")


class Liability(models.TextChoices):
    FULL = "full", _("responsible (ответственный)")
    HALF = "half", _("half-responsible (полуответственный)")


class JointLiability(models.TextChoices):
    SECOND = "second", _("the second whister")
    BOTH = "both", _("both whisters")
    SECOND_OWN = "second_own", _("the second whister, by his own tricks")


class Ten(models.TextChoices):
    WHISTED = "whisted", _("whisted (вистуется)")
    CHECKED = "checked", _("checked, not whisted (проверяется)")


class Consoler(models.TextChoices):
    WHISTERS = "whisters", _("the whisters")
    PASSER = "passer", _("the passer")
    DEALER = "dealer", _("the dealer (4–5 players)")


class HalfWhistLevel(models.IntegerChoices):
    SIX = 6, _("six")
    SEVEN = 7, _("seven")


class ConsolationUnit(models.TextChoices):
    PRICE = "price", _("the contract's price")
    FLAT10 = "flat10", _("a flat 10 whists")


class AllpassScoring(models.TextChoices):
    GORA = "gora", _("in the gora (Sochi, Leningrad)")
    WHISTS = "whists", _("in whists (Rostov)")


class ZeroBonus(models.TextChoices):
    PULYA = "pulya", _("the price to the pulya")
    PULYA_SCALED = "pulya_scaled", _("the price of a trick in the gora, to the pulya")
    GORA = "gora", _("the price off the gora")
    GORA_DOUBLE = "gora_double", _("twice the price off the gora")
    NONE = "none", _("nothing")


class AllpassReset(models.TextChoices):
    ANY_GAME = "any_game", _("any game")
    WHISTED_GAME = "whisted_game", _("a whisted game")
    GAME_OR_MISERE = "game_or_misere", _("a game to the pulya or a misère")
    MADE_WHISTED_GAME = "made_whisted_game", _("a whisted game made")
    MADE_GAME_OR_MISERE = "made_game_or_misere", _("a game to the pulya or a made misère")
    PLAYED_GAME_OR_MISERE = "played_game_or_misere", _("a played game or misère")
    MADE_PLAYED_GAME = "made_played_game", _("a played game or misère, made")


class End(models.TextChoices):
    ALL_CLOSED = "all_closed", _("when every pulya is closed")
    SUM_REACHED = "sum_reached", _("when the pulyas add up to the total")
    DEALS = "deals", _("after a number of deals")


class Rounding(models.TextChoices):
    EXACT = "exact", _("exact, by largest remainder")
    CODEX = "codex", _("by the Кодекс 4.2.12")


class RoundingAdjusts(models.TextChoices):
    PAIRWISE = "pairwise", _("the players the pairwise method needs")
    FIRST_SEAT = "first_seat", _("the seats clockwise from the first")


class PulyaToGora(models.IntegerChoices):
    ONE = 1, _("1 gora point per pulya point")
    TWO = 2, _("2 gora points per pulya point")


class Compensation(models.IntegerChoices):
    TWO = 2, _("2 whists")
    THREE = 3, _("3 whists")


class CheckedTenConsolation(models.TextChoices):
    DEFENDERS = "defenders", _("both defenders, as consolation says")
    NONE = "none", _("nobody")


class HelpWriteoff(models.TextChoices):
    POINTS = "points", _("one gora point per pulya point")
    PULYA_RATE = "pulya_rate", _("at the pulya-to-gora rate")


# docs/rules.md §3.10: deals with facts of their own.
class DealerWhist(models.TextChoices):
    NONE = "none", _("never")
    UNLIABLE = "unliable", _("yes, without paying for missing tricks (FSPR)")
    LIABLE = "liable", _("yes, as a lone whister who pays for missing tricks")


class TalonShownPenalty(models.TextChoices):
    NONE = "none", _("nothing")
    WHISTS = "whists", _("twice the whist price, written by the declarer on the dealer")
    GORA = "gora", _("one undertrick into the dealer's gora")


class ReturnedWhistConsolation(models.TextChoices):
    WHISTER = "whister", _("his own only")
    BOTH = "both", _("his own and the half-whister's")


class ConcedeLevel(models.IntegerChoices):
    SIX = 6, _("six")
    SEVEN = 7, _("seven")
    EIGHT = 8, _("eight")
    NINE = 9, _("nine")
    TEN = 10, _("ten")


# docs/rules.md §3.4 (PU home's help, option help_order).
class HelpOrder(models.TextChoices):
    LARGEST = "largest", _("the largest unclosed pulya")
    CLOCKWISE = "clockwise", _("the next unclosed pulya clockwise")


# docs/rules.md §3.7 (RS, option mountain_divisor).
class MountainDivisor(models.TextChoices):
    PLAYERS = "players", _("every player, its owner too (the mean mountain)")
    OTHERS = "others", _("the other players only")
