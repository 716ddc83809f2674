"""The rules of preferans scoring: pure Python, no Django (design.md, "Layout").

Every public function cites the rule it implements: rules.md sections, protocol.md
decisions, or the Кодекс преферанса (ОЛП, 1996) chapter 4.
"""
