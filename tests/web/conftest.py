"""Fixtures shared by the web tests."""

from tests.web.fixtures_access import (  # noqa: F401
    _access_world_of_the_module,
    access_world,
    access_world_once_per_module,
    client_as,
)
from tests.web.fixtures_club import club_client, club_world  # noqa: F401
from tests.web.fixtures_conventions import conventions_client, conventions_world  # noqa: F401
from tests.web.fixtures_corrections import (  # noqa: F401
    make_seated_pulka,
    seated_client,
    seated_world,
)
from tests.web.fixtures_table import make_table_pulka, table_client, table_world  # noqa: F401
from tests.web.fixtures_tournaments import cup, tournament_world  # noqa: F401
