"""Playing well: the deals a seat cannot see (:mod:`~tutor.play.simulation`), the search that
weighs plays on them (:mod:`~tutor.play.search`), the computer players
(:mod:`~tutor.play.strategy`, :mod:`~tutor.play.bots`), the coach's advice
(:mod:`~tutor.play.coach`), what it weighs while a learner thinks
(:mod:`~tutor.play.ahead`), the positions it analysed deeply beforehand
(:mod:`~tutor.play.bank`), and a hand's record (:mod:`~tutor.play.record`). Everything here
asks :mod:`tutor.rules` what is legal and what it scores.

>>> from tutor.play import play_random_hand
>>> play_random_hand(seed=3).phase.name
'FINISHED'
"""

from tutor.play.bots import play_random_hand, random_action
from tutor.play.coach import advise
from tutor.play.search import calls_to_weigh, weigh_calls
from tutor.play.simulation import unseen_cards, unseen_points
from tutor.play.strategy import computer_hand, next_action

__all__ = ["advise", "calls_to_weigh", "computer_hand", "next_action", "play_random_hand", "random_action",
           "unseen_cards", "unseen_points", "weigh_calls"]
