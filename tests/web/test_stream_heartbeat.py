"""The stream's heartbeat keeps a proxy's read timeout from cutting it (docs/push.md).

A proxy (Caddy, nginx) cuts a stream on which no byte came for its read timeout. The
heartbeat must then be counted from the last byte sent, whatever woke the stream in
between: here it is woken more often than the heartbeat, each time with nothing new (as
when its listener's session is touched), and must still send a byte every heartbeat.
And a stream cancelled (the browser gone) in the tick of a wake must end, which Python
3.11's ``asyncio.wait_for`` would not let it. No database: the check is a plain function,
the hub's feed a stand-in.
"""

from __future__ import annotations

import asyncio
import time

from prefscore.games import events, streams

HEARTBEAT = 0.2  # seconds, for the test
KEY = "pulka:1"


def test_a_stream_woken_often_with_nothing_new_still_beats_in_time(monkeypatch):
    monkeypatch.setattr(streams, "HEARTBEAT_SECONDS", HEARTBEAT)
    reading = streams.Reading(version=7, keys=frozenset({KEY}))

    async def scenario() -> list[float]:
        hub = events.hub()
        hub.feed = asyncio.get_running_loop().create_task(asyncio.sleep(0))  # no real feed
        body = streams.changes(lambda: reading, reading)
        sent: list[float] = []

        async def read() -> None:
            async for chunk in body:
                sent.append(time.monotonic())
                assert chunk.startswith(b"retry:") or chunk == b": heartbeat\n\n", chunk

        reader = asyncio.create_task(read())
        for _ in range(12):  # woken every 0.6 of a heartbeat, for 1.4 s
            await asyncio.sleep(HEARTBEAT * 0.6)
            hub.wake(KEY)
        reader.cancel()  # the browser gone, in the very tick of a wake
        done, _ = await asyncio.wait({reader}, timeout=1)
        assert reader in done, "the cancellation was swallowed: the stream lives on"
        await body.aclose()
        return sent

    sent = asyncio.run(scenario())

    gaps = [later - earlier for earlier, later in zip(sent, sent[1:], strict=False)]
    assert len(sent) >= 6, sent  # the version, then a beat every 0.2 s of the 1.4 s
    assert max(gaps) < HEARTBEAT * 1.5, gaps
