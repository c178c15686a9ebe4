"""Chart geometry (pure)."""

from tournaments.ratings.chart import build, nice_range


def test_gridlines_are_round_and_cover_the_values():
    start, stop, step = nice_range(1463.2, 1587.9)
    assert (start, stop, step) == (1450, 1600, 50)


def test_points_span_the_plot_from_first_to_last_match():
    chart = build([1500.0, 1520.0, 1500.0, 1480.0])
    left, top, right, bottom = chart.plot
    xs = [float(p.split(",")[0]) for p in chart.points.split()]
    assert xs[0] == left and xs[-1] == right and chart.matches == 3
    assert all(top <= float(p.split(",")[1]) <= bottom for p in chart.points.split())
    assert chart.x_labels[-1][1] == "3" and len(chart.dots) == 4


def test_a_long_history_draws_a_line_without_dots():
    chart = build([1500.0 + (n % 7) for n in range(500)])
    assert chart.dots == () and len(chart.points.split()) == 500
