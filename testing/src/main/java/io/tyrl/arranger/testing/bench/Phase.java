package io.tyrl.arranger.testing.bench;

/**
 * One phase of the benchmark, which knows how to run once and what it measures. The main class
 * repeats it, each run in a fresh namespace, and reports the medians.
 */
interface Phase {

  /** As in {@code --phases}: names the phase's runs, their namespaces and progress lines. */
  String name();

  /**
   * One run in a namespace of its own, left empty after it.
   *
   * @param repeat which run this is, from 1, for the progress lines
   */
  PhaseRun runOnce(String namespace, int repeat);
}
