"""The club server: accounts, lobby and game requests, live tables, clocks and ratings.

Only this package knows about sockets, databases and clocks; it wraps one pure engine call per
move (``kozel.layout.match``) with checks, persistence and fan-out.
"""
