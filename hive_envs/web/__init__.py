"""A local web page to play Hive and Hoyito II against any player, replay games and reports, and see
what a network player thinks: ``hive-web`` (needs the ``web`` extra, Flask).

`server` is the Flask app and the command; `tables` holds the games in play; `boards` turns a
position into what the page draws; `records` reads game records and match reports for replay;
`thoughts` reads what the search that chose a computer's move saw (a network's policy, visits and
value; alpha-beta's depth, nodes and line); `compiling` counts numba's compilations for the page's
warm-up notice. The page (``static/``) is plain HTML, CSS and JavaScript with no build step; it asks
the server for every legal move.
"""
