"""What the table screens show, computed in Python so that templates only place it.

Every figure comes from the engine (``scoring.engine``); these modules only format it
and put it into the drawing (``games.drawing``), the protocol, the entry form, the
settlement and the table screen's context. One module per part of the screen:

- ``numbers``: figures as players write them;
- ``sheet``: the drawn sheet and its plain table, corrections struck as on paper;
- ``protocol``: the deals in notation, every entry explained;
- ``entry``: the entry form;
- ``settlement``: the one settlement view model of every screen that settles;
- ``table``: the table screen's whole context.

The names below are the package's public ones: ``presenters.X`` finds each.
"""

from __future__ import annotations

from ..recording import CorrectionStep
from .entry import (
    CONTRACT_LEVELS,
    MISERE_RANK,
    SUITS,
    EntryForm,
    Option,
    PlayerTricks,
    PlayerWord,
    entry_form,
    values_from_facts,
)
from .numbers import (
    MINUS,
    format_money,
    format_points,
    format_result,
    no_trumps,
    reader_notation,
    signed,
)
from .protocol import (
    LineActions,
    ProtocolEvent,
    ProtocolLine,
    explain,
    penalty_text,
    protocol_lines,
)
from .settlement import (
    Cell,
    SettlementRow,
    SettlementView,
    cell,
    file_settlement,
    money_cell,
    paper_settlement,
    settlement_of,
    settlement_view,
)
from .sheet import (
    LABEL_FONT,
    DrawnSheet,
    FieldLabel,
    FieldText,
    Figure,
    Line,
    NameText,
    Paper,
    PlayerFigures,
    Series,
    SeriesCell,
    SheetRow,
    SheetTable,
    draw_sheet,
    paper_of,
    sheet_table,
    totals_of,
)

# Last (as it sorts): the table's context uses every module above.
from .table import current_state, line_actions, table_context

__all__ = [
    "no_trumps",
    "reader_notation",
    "CONTRACT_LEVELS",
    "LABEL_FONT",
    "MINUS",
    "MISERE_RANK",
    "SUITS",
    "Cell",
    "CorrectionStep",
    "DrawnSheet",
    "EntryForm",
    "FieldLabel",
    "FieldText",
    "Figure",
    "Line",
    "LineActions",
    "NameText",
    "Option",
    "Paper",
    "PlayerFigures",
    "PlayerTricks",
    "PlayerWord",
    "ProtocolEvent",
    "ProtocolLine",
    "Series",
    "SeriesCell",
    "SettlementRow",
    "SettlementView",
    "SheetRow",
    "SheetTable",
    "cell",
    "current_state",
    "draw_sheet",
    "entry_form",
    "explain",
    "file_settlement",
    "paper_settlement",
    "format_money",
    "format_points",
    "format_result",
    "line_actions",
    "money_cell",
    "paper_of",
    "penalty_text",
    "protocol_lines",
    "settlement_of",
    "settlement_view",
    "sheet_table",
    "signed",
    "table_context",
    "totals_of",
    "values_from_facts",
]
