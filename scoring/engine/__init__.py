"""The rules of preferans scoring: pure Python, no Django (docs/design.md, "Layout").

Every public function cites the rule it implements: docs/rules.md sections, docs/protocol.md
decisions, or the Кодекс преферанса (ОЛП, 1996) chapter 4.
"""
