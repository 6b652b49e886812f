"""Tute for reinforcement-learning research (``pip install -e '.[rl]'``): a PettingZoo
AEC environment (:mod:`tute.rl.aec`) and an OpenSpiel game (:mod:`tute.rl.spiel`) for
every preset, on one codec of actions, observations and rewards (:mod:`tute.rl.codec`).
Never needed to play: nothing else imports this package."""
