"""LivePlot draws with one function for live frames and the final figure; progress can be muted."""

from mctslib.progress import progress_bar, progress_enabled
from mctslib.views.plotting import LivePlot


def test_liveplot_outside_ipython_draws_final_state():
    calls = []

    def draw(fig, data):
        calls.append(data)
        fig.add_subplot().plot(data)

    live = LivePlot(draw, min_interval=3600)
    live.update([1, 2])  # first update draws at once
    live.update([1, 2, 3])  # throttled: within min_interval
    live.finish([1, 2, 3, 4])
    assert calls == [[1, 2], [1, 2, 3, 4]]
    line = live.fig.axes[0].lines[0]
    assert list(line.get_ydata()) == [1, 2, 3, 4]


def test_liveplot_waits_the_interval_after_a_slow_redraw_ends(monkeypatch):
    # A fake clock: each redraw takes 2 s, the interval is 1 s. Counted from the redraw's
    # start, every update would redraw; counted from its end, an update 0.5 s later waits.
    from mctslib.views import plotting

    clock = [0.0]
    monkeypatch.setattr(plotting.time, "monotonic", lambda: clock[0])
    calls = []

    def slow_draw(fig, data):
        calls.append(data)
        clock[0] += 2.0

    live = LivePlot(slow_draw, min_interval=1.0)
    live.update(1)   # draws: 0 s -> 2 s
    clock[0] += 0.5
    live.update(2)   # 0.5 s after the redraw ended: waits
    clock[0] += 0.6
    live.update(3)   # 1.1 s after: draws
    assert calls == [1, 3]


def test_progress_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("MCTSLIB_PROGRESS", "0")
    assert not progress_enabled()
    with progress_bar(10, "quiet") as bar:
        bar.update(10)
        assert bar.disable
    monkeypatch.setenv("MCTSLIB_PROGRESS", "1")
    assert progress_enabled()
