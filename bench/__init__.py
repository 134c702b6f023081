"""Benchmarks of the real app beside a bare Kivy app: `python -m bench` (under xvfb-run)
runs them all and prints a Markdown report; the figures live in docs/benchmarks.md."""
