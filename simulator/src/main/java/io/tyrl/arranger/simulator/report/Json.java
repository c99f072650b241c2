package io.tyrl.arranger.simulator.report;

import java.util.Locale;

/**
 * The little JSON the report embeds: strings and finite numbers, written so that it may sit inside
 * a script element.
 */
final class Json {

  private Json() {}

  static String string(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        // "</script>" or "<!--" inside the data would end or confuse the element holding it.
        case '<' -> out.append("\\u003c");
        case '>' -> out.append("\\u003e");
        case '&' -> out.append("\\u0026");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** A number with up to 4 decimals; NaN and infinities (not JSON) become null. */
  static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "null";
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    String fixed = String.format(Locale.ROOT, "%.4f", value).replaceAll("0+$", "");
    return fixed.endsWith(".") ? fixed.substring(0, fixed.length() - 1) : fixed;
  }
}
