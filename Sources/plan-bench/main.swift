// plan-bench: the orienteering solver on ../shared/bench/optw (filled in by issue 31).
print("plan-bench: not built yet")
