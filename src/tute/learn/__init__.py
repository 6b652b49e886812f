"""Learned reading of the cards: where each card a seat cannot see is likely to be.

:mod:`~tute.learn.features` turns a seat's view -- and nothing more -- into numbers;
:mod:`~tute.learn.model` runs a small network over them in numpy (no PyTorch at play
time) and gives, for every hidden card, the chance of each place it may be: each other
seat's hand or the stock.  A searching robot weighs the deals it samples by those
chances (:mod:`tute.bots.reader`).  The weights ship in the package, each with the
command and seed that made them (``tute train``, :mod:`tute.tools.training`).
"""
