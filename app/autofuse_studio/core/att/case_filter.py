"""`--case` filters such as `r=0,1,g=2,c=1`: results, groups and cases to keep."""

from __future__ import annotations

from dataclasses import dataclass

from autofuse_studio.core.errors import UsageError

_DIMENSIONS = {"r": "results", "result": "results", "results": "results",
               "g": "groups", "group": "groups", "groups": "groups",
               "c": "cases", "case": "cases", "cases": "cases"}


@dataclass(frozen=True)
class CaseFilter:
    """Allowed ids per dimension; an empty set means the dimension is not filtered."""

    results: frozenset[int] = frozenset()
    groups: frozenset[int] = frozenset()
    cases: frozenset[int] = frozenset()

    def matches(self, result: int, group: int, case: int) -> bool:
        """True when (result, group, case) passes every mentioned dimension."""
        return ((not self.results or result in self.results)
                and (not self.groups or group in self.groups)
                and (not self.cases or case in self.cases))


def parse_case_filter(text: str | None) -> CaseFilter:
    """Parse `dim=N,N,dim=N`; UsageError with a clear message on bad syntax."""
    if text is None or not text.strip():
        return CaseFilter()
    chosen: dict[str, set[int]] = {"results": set(), "groups": set(), "cases": set()}
    current: str | None = None
    for raw in text.split(","):
        token = raw.strip()
        if "=" in token:
            name, _, number = token.partition("=")
            current = _DIMENSIONS.get(name.strip().lower())
            if current is None:
                raise UsageError.of("case_filter_unknown_dimension", text=text, name=name.strip())
        else:
            number = token
            if current is None:
                raise UsageError.of("case_filter_no_dimension", text=text, token=token)
        try:
            chosen[current].add(int(number.strip().removeprefix("R")))
        except ValueError:
            raise UsageError.of("case_filter_not_integer", text=text, token=token) from None
    return CaseFilter(frozenset(chosen["results"]), frozenset(chosen["groups"]), frozenset(chosen["cases"]))
