package io.tyrl.arranger.simulator.cli;

import java.util.Locale;

/** How the command prints fractions: as percentages with one decimal. */
final class Formats {

  private Formats() {}

  static String percent(double fraction) {
    return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }
}
