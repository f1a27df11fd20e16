"""Case specs, Hypothesis strategies and checks of the attnfuzz harness."""
