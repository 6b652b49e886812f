"""The rules core: pure rules only, no I/O, no asyncio, no globals (DESIGN.md).

cards · variants · actions · deal · auction · tables (bit masks: ranking, points,
beats) · declarations · game · explain · snapshot · views · scoring · result · value (a finished hand's worth to each seat) · match ·
driver · records · position · errors.  Nothing here imports anything above it.
"""
