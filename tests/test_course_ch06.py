"""course.preflight: the report table, flights, the healthy models and the test helper chapter 6 stands on."""
import pytest
import torch

from course.preflight import (CheckResult, Report, SmallConvNet, decoder_flight, expect_verdict,
                              healthy_flights)


def test_report_table_rows_summary_and_lookup():
    report = Report([CheckResult("gradients", True, "fine", 0.25), CheckResult("graph", False, "w not reached")])
    lines = str(report).splitlines()
    assert lines[0].split() == ["check", "result", "seconds", "reason"]
    assert lines[1].split()[:3] == ["gradients", "pass", "0.25"] and lines[2].split()[:2] == ["graph", "FAIL"]
    assert lines[-1] == "2 checks: 1 passed, 1 failed (graph)"
    assert not report.passed and report.failed() == ["graph"] and report["graph"].reason == "w not reached"
    assert [r.name for r in report] == ["gradients", "graph"] and len(report) == 2 and repr(report) == str(report)
    with pytest.raises(KeyError, match="gradients, graph"):
        report["memory"]


def test_report_without_seconds_and_all_passed():
    report = Report([CheckResult("a", True, "ok")])
    assert report.passed and str(report).splitlines()[-1] == "1 checks: 1 passed"


def test_report_rejects_rows_that_are_not_results():
    with pytest.raises(TypeError, match="CheckResult"):
        Report([("gradients", True, "ok")])


def test_flight_replace_changes_one_field_and_keeps_the_rest():
    flight = healthy_flights()["mlp"]
    other = flight.replace(batch_size=3)
    assert other.batch_size == 3 and flight.batch_size == 8 and other.model is flight.model
    assert (other.steps, other.seed, other.functions, other.frozen, other.max_ratio) == (60, 0, (), (), 1e3)


@pytest.mark.parametrize("name", ["mlp", "decoder", "convnet"])
def test_healthy_flights_give_a_scalar_loss_with_gradients(name):
    torch.manual_seed(0)
    flight = healthy_flights()[name]
    loss = flight.loss_fn(flight.model, flight.make_batch(flight.batch_size))
    assert loss.dim() == 0 and loss.requires_grad
    loss.backward()
    assert all(p.grad is not None for p in flight.model.parameters())
    assert isinstance(flight.make_optimizer(flight.model.parameters()), torch.optim.Adam)


def test_flights_are_seeded_and_leave_the_global_generator_alone():
    torch.manual_seed(5)
    before = torch.rand(1)
    torch.manual_seed(5)
    a, b = decoder_flight(seed=1), decoder_flight(seed=1)
    assert torch.equal(torch.rand(1), before)
    assert all(torch.equal(p, q) for p, q in zip(a.model.parameters(), b.model.parameters()))


def test_convnet_shapes():
    assert SmallConvNet(channels=3, width=4, classes=5)(torch.zeros(2, 3, 6, 6)).shape == (2, 5)


def test_expect_verdict_messages():
    ok = CheckResult("graph", True, "all reached")
    expect_verdict("x", ok, True, name="graph", mentions=["reached"])
    for args, message in [((ok, False), "expected passed=False"), ((ok, True, "memory"), "expected the name"),
                          ((ok, True, None, ["w.bias"]), "should name 'w.bias'"),
                          ((CheckResult("g", True, "two\nlines"), True), "one non-empty line"),
                          (("not a result", True), "expected a course.preflight.CheckResult")]:
        with pytest.raises(AssertionError, match=message):
            expect_verdict("x", *args)
