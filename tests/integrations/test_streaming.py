"""scored_pr.streaming: SummaryLogger calls back every N cases and/or T seconds, cheaply."""

from __future__ import annotations

import contextlib
import copy
import logging
import math
import time
from collections.abc import Iterator

import pytest

from scored_pr import ScoredPrecisionRecallEvaluation
from scored_pr.streaming import Summary, SummaryLogger, format_summary


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.now


def make(every=None, seconds=None, clock=None):
    calls: list[Summary] = []
    kwargs = {} if clock is None else {"clock": clock}
    logger = SummaryLogger(ScoredPrecisionRecallEvaluation(), calls.append, every=every, seconds=seconds, **kwargs)
    return logger, calls


def feed(logger: SummaryLogger, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        logger.add_case(i % 3 == 0, 1.0 - i / 1e6)


# --------------------------------------------------------------------------- every N cases


def test_every_n_cases() -> None:
    logger, calls = make(every=10)
    feed(logger, 35)
    assert [c["num_cases"] for c in calls] == [10, 20, 30]
    assert logger.cases_since_log == 5 and logger.calls == 3
    logger.close()
    assert [c["num_cases"] for c in calls] == [10, 20, 30, 35]
    logger.close()  # nothing new: no second final call
    assert len(calls) == 4


def test_summary_is_the_evaluators_summary() -> None:
    logger, calls = make(every=4)
    feed(logger, 4)
    # the evaluator's summary, plus the step (cases seen) and the wall-clock time
    summary = dict(calls[0])
    assert summary.pop("step") == 4 and isinstance(summary.pop("time"), float)
    assert summary == logger.evaluation.summary()
    assert isinstance(calls[0], dict) and isinstance(calls[0], Summary)


def test_every_one() -> None:
    logger, calls = make(every=1)
    feed(logger, 3)
    assert [c["num_cases"] for c in calls] == [1, 2, 3]


def test_a_batch_crossing_the_threshold_calls_back_once() -> None:
    logger, calls = make(every=10)
    logger.add_cases([True, False] * 20, [0.5] * 40)
    assert [c["num_cases"] for c in calls] == [40]
    feed(logger, 9)
    assert len(calls) == 1
    feed(logger, 1, start=9)
    assert [c["num_cases"] for c in calls] == [40, 50]
    logger.add_cases([], [])  # nothing added, nothing called
    assert len(calls) == 2


def test_a_rejected_case_is_not_counted() -> None:
    logger, calls = make(every=2)
    logger.add_case(True, 0.5)
    with pytest.raises(TypeError):
        logger.add_case("yes", 0.5)
    with pytest.raises(ValueError):
        logger.add_cases([True], [float("nan")])
    assert calls == [] and logger.num_cases == 1 and logger.cases_since_log == 1
    logger.add_case(False, 0.4)
    assert [c["num_cases"] for c in calls] == [2]


def test_misses_are_reported_at_close_but_not_counted() -> None:
    logger, calls = make(every=2)
    logger.add_case(True, 0.5)
    logger.add_misses(3)
    logger.add_negative_misses(2)
    assert calls == []
    logger.close()
    assert calls[0]["num_positive_ref"] == 4 and calls[0]["num_negative_ref"] == 2
    logger.add_misses(0)
    logger.close()
    assert len(calls) == 1


def test_context_manager_logs_the_final_summary_even_on_error() -> None:
    calls: list[Summary] = []
    with pytest.raises(RuntimeError):
        with SummaryLogger(ScoredPrecisionRecallEvaluation(), calls.append, every=100) as logger:
            feed(logger, 5)
            raise RuntimeError("inference failed")
    assert [c["num_cases"] for c in calls] == [5]


def test_log_now() -> None:
    logger, calls = make(every=100)
    feed(logger, 7)
    summary = logger.log()
    assert calls == [summary] and summary["num_cases"] == 7 and logger.cases_since_log == 0
    feed(logger, 99, start=7)
    assert len(calls) == 1  # the period restarted at the explicit call
    feed(logger, 1, start=106)
    assert calls[-1]["num_cases"] == 107


# --------------------------------------------------------------------------- every T seconds


def test_slow_cases_are_checked_at_every_case() -> None:
    clock = FakeClock()
    logger, calls = make(seconds=10.0, clock=clock)
    for i in range(35):  # one case per second
        clock.now += 1.0
        logger.add_case(i % 2 == 0, float(i))
    assert [c["num_cases"] for c in calls] == [10, 20, 30]


def test_fast_cases_read_the_clock_at_most_every_64_cases() -> None:
    clock = FakeClock()
    logger, calls = make(seconds=1.0, clock=clock)
    for _ in range(10):  # 10,000 cases per second
        clock.now += 1e-4
        feed(logger, 1)
    reads_before = clock.reads
    feed(logger, 6400)  # the clock stands still: the stride grows to its maximum
    assert clock.reads - reads_before <= 6400 // 64 + 8
    clock.now += 5.0  # the period is over: the next clock reading calls back
    feed(logger, 64)
    assert len(calls) == 1
    logger.close()


def test_whichever_period_ends_first() -> None:
    clock = FakeClock()
    logger, calls = make(every=5, seconds=100.0, clock=clock)

    def tick(n: int, start: int) -> None:
        for i in range(start, start + n):  # one case per second
            clock.now += 1.0
            feed(logger, 1, start=i)

    tick(5, 0)
    assert [c["num_cases"] for c in calls] == [5]
    clock.now += 150.0
    tick(1, 5)
    assert [c["num_cases"] for c in calls] == [5, 6]  # time, although only 1 case of 5
    tick(4, 6)
    assert len(calls) == 2
    tick(1, 10)
    assert [c["num_cases"] for c in calls] == [5, 6, 11]


def test_a_batch_checks_the_clock() -> None:
    clock = FakeClock()
    logger, calls = make(seconds=1.0, clock=clock)
    logger.add_cases([True, False], [0.5, 0.4])
    assert calls == []
    clock.now += 2.0
    logger.add_cases([True], [0.3])
    assert [c["num_cases"] for c in calls] == [3]


def test_a_stream_that_slows_down_is_followed_at_once() -> None:
    clock = FakeClock()
    logger, calls = make(seconds=10.0, clock=clock)
    for _ in range(1000):  # fast: 1,000 cases per second, the stride grows to 64
        clock.now += 1e-3
        feed(logger, 1)
    assert logger._stride == 64
    calls.clear()
    for i in range(200):  # slow: one case per second, at most 63 cases late once, then exact
        clock.now += 1.0
        feed(logger, 1)
    times = [c["num_cases"] for c in calls]
    assert len(times) >= 18 and all(b - a == 10 for a, b in zip(times[1:], times[2:]))


def test_real_clock() -> None:
    logger, calls = make(seconds=0.05)
    feed(logger, 1)
    time.sleep(0.06)
    feed(logger, 1, start=1)
    assert len(calls) == 1


# --------------------------------------------------------------------------- callables and output


def test_logger_info_writes_one_line(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("scored_pr.test")
    with caplog.at_level(logging.INFO, logger="scored_pr.test"):
        with SummaryLogger(ScoredPrecisionRecallEvaluation(), log.info, every=2) as logger:
            logger.add_case(True, 0.9)
            logger.add_case(False, 0.1)
    assert caplog.messages == ["cases=2 pos=1 AP=1.0000 AUC=1.0000 maxF1=1.0000 BEP=1.0000 P@10=nan"]


def test_print(capsys: pytest.CaptureFixture[str]) -> None:
    with SummaryLogger(ScoredPrecisionRecallEvaluation(), print, every=1) as logger:
        logger.add_case(True, 0.9)
    assert capsys.readouterr().out == "cases=1 pos=1 AP=1.0000 AUC=nan maxF1=1.0000 BEP=1.0000 P@10=nan\n"


def test_callback_errors_during_adds_are_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    def broken(summary: Summary) -> None:
        raise OSError("metrics server down")

    logger = SummaryLogger(ScoredPrecisionRecallEvaluation(), broken, every=1)
    with caplog.at_level(logging.ERROR, logger="scored_pr.streaming"):
        logger.add_case(True, 0.5)  # stored, counted once, and no exception to retry on
    assert logger.num_cases == 1 and logger.callback_errors == 1
    assert "metrics server down" in caplog.text


def test_format_summary() -> None:
    assert format_summary({}) == ""
    assert format_summary({"num_cases": 3, "average_precision": float("nan"), "other": 1}) == "cases=3 AP=nan"
    assert format_summary({"average_precision": 0.123456}, digits=2) == "AP=0.12"
    assert str(Summary(num_cases=1)) == "cases=1" and repr(Summary(num_cases=1)) == "{'num_cases': 1}"


# --------------------------------------------------------------------------- delegation, validation


def test_delegation_and_repr() -> None:
    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    logger = SummaryLogger(ev, print, every=10)
    logger.add_case(True, 0.5)
    assert logger.evaluation is ev
    assert logger.ties == "grouped" and logger.average_precision() == 1.0 and logger.num_cases == 1
    assert repr(logger).startswith("SummaryLogger(ScoredPrecisionRecallEvaluation(ties='grouped'")
    assert "every=10" in repr(logger) and "print" in repr(logger)
    with pytest.raises(AttributeError):
        logger.no_such_method  # noqa: B018
    with pytest.raises(AttributeError):
        logger.__no_such_dunder__  # noqa: B018


def test_copy() -> None:
    logger, calls = make(every=3)
    feed(logger, 2)
    twin = copy.copy(logger)
    assert twin.cases_since_log == 2 and twin.evaluation is logger.evaluation


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({}, ValueError, "give 'every'"),
        ({"every": 0}, ValueError, "'every' must be an int >= 1"),
        ({"every": 2.0}, TypeError, "'every' must be an int >= 1"),
        ({"every": True}, TypeError, "'every'"),
        ({"seconds": 0}, ValueError, "'seconds' must be a finite real number > 0"),
        ({"seconds": math.inf}, ValueError, "'seconds'"),
        ({"seconds": "1"}, TypeError, "'seconds'"),
    ],
)
def test_validation(kwargs: dict, exc: type, match: str) -> None:
    with pytest.raises(exc, match=match):
        SummaryLogger(ScoredPrecisionRecallEvaluation(), print, **kwargs)


def test_argument_types() -> None:
    with pytest.raises(TypeError, match="'evaluation' must be an evaluator of any kind: ScoredPrecisionRecallEvaluation"):
        SummaryLogger([], print, every=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="'callback' must be callable"):
        SummaryLogger(ScoredPrecisionRecallEvaluation(), "print", every=1)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- callbacks


def test_a_failing_callback_never_makes_a_case_count_twice(caplog: pytest.LogCaptureFixture) -> None:
    from scored_pr import ScoredPrecisionRecallEvaluation
    from scored_pr.streaming import SummaryLogger

    def broken(summary: object) -> None:
        raise ConnectionError("metrics backend down")

    ev = ScoredPrecisionRecallEvaluation(ties="grouped")
    logger = SummaryLogger(ev, broken, every=2)
    with caplog.at_level("ERROR", logger="scored_pr.streaming"):
        for i in range(10):
            logger.add_case(i % 2 == 0, float(i))  # a retry-on-error caller would re-add here
    assert ev.num_cases == 10 and logger.callback_errors == 5
    assert "metrics backend down" in caplog.text
    with pytest.raises(ConnectionError):
        logger.log()  # an explicit call still raises


def test_exit_never_masks_the_users_exception(caplog: pytest.LogCaptureFixture) -> None:
    from scored_pr import ScoredPrecisionRecallEvaluation
    from scored_pr.streaming import SummaryLogger

    def broken(summary: object) -> None:
        raise ConnectionError("metrics backend down")

    with pytest.raises(KeyError, match="the user's own error"):
        with SummaryLogger(ScoredPrecisionRecallEvaluation(ties="grouped"), broken, every=100) as ev:
            ev.add_case(True, 0.5)
            raise KeyError("the user's own error")
    assert "metrics backend down" in caplog.text
    with pytest.raises(ConnectionError):  # without a user exception, the final callback's error shows
        with SummaryLogger(ScoredPrecisionRecallEvaluation(ties="grouped"), broken, every=100) as ev:
            ev.add_case(True, 0.5)


# --------------------------------------------------------------------------- refused calls reach neither


def _refusal_race(make_ev, seconds: float, seed: int, with_window: bool = True) -> None:
    """Feed a SummaryLogger with a window while another thread queries the evaluator and the window.

    Every call that raised (another thread was inside: RuntimeError; bad input: ValueError or
    TypeError) must have reached neither the evaluator nor the window; every call that returned,
    both. The window is larger than everything added, so it holds exactly what the evaluator holds.
    """
    import random
    import threading

    from scored_pr import BoundedEvaluation, SynchronizedEvaluation, WindowedEvaluation

    rng = random.Random(seed)
    ev = make_ev()
    window = WindowedEvaluation(size=1_000_000)
    logged: list[Summary] = []
    logger = SummaryLogger(ev, logged.append, every=7, window=window if with_window else None)
    stop = threading.Event()
    reads = [0]
    failures: list[BaseException] = []

    def read() -> None:
        while not stop.is_set():
            for query in (lambda: ev.summary(), lambda: ev.num_cases, lambda: window.summary(),
                          lambda: ev.area_under_roc_curve()):
                try:
                    query()
                    reads[0] += 1
                except RuntimeError:
                    pass
                except BaseException as exc:  # noqa: BLE001 - reported by the test below
                    failures.append(exc)
                    return

    reader = threading.Thread(target=read)
    reader.start()
    accepted = misses = refused = rejected = 0
    start = time.monotonic()
    try:
        # ``seconds`` of calls, and on for up to 30 s more until the reader has read and a bad input
        # was rejected (on a loaded machine the reader may not get a turn in the first second); how
        # often the random race refuses a call is up to the thread switches: _held_refusals below
        # makes sure refusals happen
        def pending() -> bool:
            return not (reads[0] and rejected and accepted >= 7)  # 7: one summary logged

        while time.monotonic() < start + seconds or (pending() and time.monotonic() < start + seconds + 30):
            op = rng.randrange(6)
            bad = rng.random() < 0.1
            try:
                if op <= 2:
                    score = "high" if bad else rng.random()
                    logger.add_case(rng.random() < 0.3, score, rng.choice([1.0, 2.0]))
                    accepted += 1
                elif op <= 4:
                    n = rng.randrange(1, 20)
                    scores = [rng.random() for _ in range(n)]
                    if bad:
                        scores[rng.randrange(n)] = math.nan
                    logger.add_cases([rng.random() < 0.3 for _ in range(n)], iter(scores))
                    accepted += n
                else:
                    count = -1 if bad else rng.randrange(3)
                    logger.add_misses(count)
                    misses += count
            except RuntimeError:
                refused += 1
            except (ValueError, TypeError):
                assert bad
                rejected += 1
    finally:
        stop.set()
        reader.join()
    assert not failures
    assert rejected > 0 and reads[0] > 0  # the bad input and the reads both happened
    if not isinstance(ev, SynchronizedEvaluation):  # which waits instead of refusing
        _held_refusals(logger, ev, window if with_window else None)
    assert (ev.num_cases, ev.num_misses) == (accepted, misses)
    if with_window:
        assert (window.num_cases, window.num_cases_seen, window.num_misses) == (accepted, accepted, misses)
        if not isinstance(ev, BoundedEvaluation):  # whose answers are Bounds
            assert window.average_precision() == ev.average_precision()
    assert logger.calls + logger.callback_errors >= 1


@contextlib.contextmanager
def _held_inside(target: object) -> Iterator[None]:
    """Another thread held inside a call of ``target`` (``save`` waiting on its path) until the block ends."""
    import threading

    inside, release = threading.Event(), threading.Event()

    class HeldPath:
        def __fspath__(self) -> str:
            inside.set()
            release.wait(30)
            raise OSError("held: not written")

    def hold() -> None:
        try:
            target.save(HeldPath())  # type: ignore[attr-defined]
        except OSError:
            pass

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert inside.wait(30)
        yield
    finally:
        release.set()
        holder.join()


def _held_refusals(logger: SummaryLogger, ev: object, window: object | None) -> None:
    """Another thread held inside a call of the evaluator, then of the window (``save`` waiting on its
    path): each add method of the logger is refused, and neither the evaluator nor the window changes."""
    for held in (ev, window):
        if held is None:
            continue
        before = (ev.summary(), None if window is None else window.summary())  # type: ignore[attr-defined]
        with _held_inside(held):
            for call in (lambda: logger.add_case(True, 0.5), lambda: logger.add_cases([True, False], [0.1, 0.2]),
                         lambda: logger.add_misses(1)):
                with pytest.raises(RuntimeError):
                    call()
        after = (ev.summary(), None if window is None else window.summary())  # type: ignore[attr-defined]
        assert repr(after) == repr(before)  # (repr: NaN == NaN)


@pytest.mark.parametrize("with_window", [True, False], ids=["window", "no-window"])
@pytest.mark.parametrize("kind", ["exact", "bounded", "synchronized"])
def test_a_refused_call_reaches_neither_the_evaluator_nor_the_window(kind: str, with_window: bool) -> None:
    from scored_pr import BoundedEvaluation, SynchronizedEvaluation

    make_ev = {"exact": ScoredPrecisionRecallEvaluation, "bounded": BoundedEvaluation,
               "synchronized": SynchronizedEvaluation}[kind]
    _refusal_race(make_ev, seconds=1.0, seed=2024, with_window=with_window)


def test_a_refused_batch_of_a_multi_query_logger_is_not_in_the_evaluator() -> None:
    """The logger of a kind of many rankings counts a batch under the evaluator's guard: a batch the
    evaluator took is never reported refused because a reader came in before the count."""
    import random
    import threading

    from scored_pr import MultiQueryEvaluation

    rng = random.Random(7)
    ev = MultiQueryEvaluation()
    logger = SummaryLogger(ev, [].append, every=50)
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            try:
                ev.summary()
            except RuntimeError:
                pass

    reader = threading.Thread(target=read)
    reader.start()
    accepted = refused = 0
    start = time.monotonic()
    try:
        # a second, and on (up to 30 s) until the race refused a batch and some were accepted: how
        # soon it does is up to the thread switches of a loaded machine
        while time.monotonic() < start + 1.0 or ((not refused or not accepted) and time.monotonic() < start + 31):
            n = rng.randrange(1, 10)
            try:
                logger.add_cases(f"q{rng.randrange(5)}", [rng.random() < 0.5 for _ in range(n)],
                                 [rng.random() for _ in range(n)])
                accepted += n
            except RuntimeError:
                refused += 1
    finally:
        stop.set()
        reader.join()
    if not refused:  # the thread switches never overlapped a batch with a read: hold a read, then add
        with _held_inside(ev):
            with pytest.raises(RuntimeError):
                logger.add_cases("q0", [True, False], [0.1, 0.2])
            refused += 1
    assert refused > 0
    assert sum(ev[q].num_cases for q in ev.queries()) == accepted
