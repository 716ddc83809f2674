"""Fair mixed-field schedules, written by bench/tournament_fair.py: do not edit.

Each is checked by tests/engine/test_seating_fair.py (docs/tournaments.md §4.3).
"""

SCHEDULES: dict[int, tuple[str, ...]] = {
    13: ("0123.456.789.abc", "409c.17b.268.35a", "158c.06a.247.39b", "637c.08b.14a.259"),
    14: ("1023.6457.89a.bcd", "408c.269b.35d.17a", "907d.36ac.258.14b", "05ab.d168.27c.349"),
    15: (
        "3012.6457.b89a.cde",
        "42be.519d.a37c.068",
        "70bd.936e.825c.14a",
        "049c.178e.26ad.35b",
        "e05a.c16b.d348.279",
    ),
    17: (
        "3012.5467.89a.bcd.efg",
        "827g.43cf.0ae.16b.59d",
        "629e.a5bf.04g.17c.38d",
        "b079.14de.68f.35g.2ac",
        "c058.g6ad.37e.19f.24b",
    ),
    18: (
        "0123.5467.89ab.cde.fgh",
        "16eg.28ch.94df.05b.37a",
        "g0ac.b7ef.d35h.148.269",
        "608f.72dg.34bc.1ah.59e",
        "e04h.c179.a25f.6bd.38g",
    ),
    21: (
        "3012.4567.89ab.cde.fgh.ijk",
        "0ehk.d9gi.c7fj.25a.168.34b",
        "6agj.14ck.b5dh.08f.39e.27i",
        "269h.a3fk.i48e.07d.1bj.5cg",
        "f15i.e2bg.j38d.06c.4ah.79k",
        "905j.71ae.h3ci.6bf.8gk.24d",
    ),
}
