"""Pages of a long list that cost the same however long the list grows: no COUNT.

Django's Paginator counts every row that matches (for "page N of M") before it fetches one page;
on the match archive that is a COUNT over a DISTINCT join of every finished match on the site, a
cost that grows with the site. Lists that only need "newer" and "older" links fetch one row past
the page instead, to learn whether there is a next page. The page object answers the same
questions a template asks of Django's Page (has_next, next_page_number, ...), bar num_pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from config.request_guard import bounded_int

MAX_PAGE = 10_000  # past this the OFFSET itself would be the cost; nobody pages that far back


@dataclass(frozen=True)
class WindowPage:
    object_list: list
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_other_pages(self) -> bool:
        return self.has_next or self.has_previous

    def next_page_number(self) -> int:
        return self.number + 1

    def previous_page_number(self) -> int:
        return self.number - 1

    def __iter__(self):
        return iter(self.object_list)

    def __len__(self):
        return len(self.object_list)


def window_page(queryset, size: int, raw_number) -> WindowPage:
    """Page `raw_number` (a query parameter; anything but 1..MAX_PAGE is page 1) of `size` rows."""
    number = bounded_int(str(raw_number or ""), 1, MAX_PAGE) or 1
    start = (number - 1) * size
    rows = list(queryset[start:start + size + 1])
    return WindowPage(rows[:size], number, len(rows) > size)
