"""The club's HTTP and WebSocket routes, by area; :func:`kozel.server.app.create_app` puts
them together.

- :mod:`.common`: what every route shares (the club of the app, the session and CSRF
  dependencies, JSON bodies, refusals);
- :mod:`.accounts`: registering, logging in and out, the player pages, the leaderboard;
- :mod:`.lobby`: the rules, requests and links, playing the computer or a stranger, the games
  being played, the lobby's chat;
- :mod:`.games`: a game, its record, its shuffle's check, its positions, its chat;
- :mod:`.tournaments`: Bykovo micro-tournaments;
- :mod:`.operations`: health and the administrators' view;
- :mod:`.pages`: the browser client (static files and its pages);
- :mod:`.sockets`: the lobby, table, tournament and link sockets.

The routes only translate: every decision is made by the part of the club
(:class:`kozel.server.club.Club`) each calls: ``club.accounts``, ``club.lobby``, ``club.relay``...
"""
