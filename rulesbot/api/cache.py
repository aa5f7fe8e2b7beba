"""The answer cache: repeated questions are the common case on a rules site (the same few doubts come up at every
table), so a question answered once is answered again from memory, keyed on its normalised text, lang and game."""

import threading
from collections import OrderedDict

# One normalisation for the cache key and the answer id, so a cached answer keeps its id.
from rulesbot.finishing import normalise_question

ANSWER_CACHE_SIZE = 4096


class AnswerCache:
    """A thread-safe LRU of answer contracts keyed on (normalised question, lang, game)."""

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[tuple, dict] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> dict | None:
        """The cached contract, or None."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple, value: dict) -> None:
        """Remember a contract, forgetting the least recently used beyond `size`."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def close(self) -> None:
        """Nothing to release (the shared cache has a connection)."""

    def __len__(self) -> int:
        return len(self._items)


__all__ = ["ANSWER_CACHE_SIZE", "AnswerCache", "normalise_question"]
