package io.tyrl.arranger.crd.contract;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as Kubernetes users write them ({@code 90s}, {@code 10m}, {@code 1h30m}, {@code 1.5h}):
 * the form {@code spec.gang.waitTime} takes. The CRD validates the same {@link #PATTERN}, so a
 * duration the API server stores is one this class reads.
 */
public final class GoDurations {

  /** The CRD's pattern for a duration: one or more amounts, each with a unit of ms, s, m or h. */
  public static final String PATTERN = "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$";

  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");

  private GoDurations() {}

  /**
   * @param field the field the text came from, named in the error
   * @throws IllegalArgumentException naming the field and the text when it is not a duration
   */
  public static Duration parse(String text, String field) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    Matcher matcher = PART.matcher(text);
    int end = 0;
    BigDecimal millis = BigDecimal.ZERO;
    while (matcher.find() && matcher.start() == end) {
      BigDecimal amount = new BigDecimal(matcher.group(1));
      long unit =
          switch (matcher.group(2)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            case "m" -> 60_000;
            default -> 3_600_000;
          };
      millis = millis.add(amount.multiply(BigDecimal.valueOf(unit)));
      end = matcher.end();
    }
    if (end != text.length() || end == 0) {
      throw new IllegalArgumentException(
          field + ": '" + text + "' is not a duration such as 90s, 10m or 1h30m");
    }
    return Duration.ofMillis(millis.longValueExact());
  }

  /**
   * The duration as {@link #parse} reads it, in whole units from hours down: {@code 1h30m}, {@code
   * 30s}, {@code 250ms}; {@code 0s} for zero.
   */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis == 0) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    long[] units = {3_600_000, 60_000, 1_000, 1};
    String[] names = {"h", "m", "s", "ms"};
    for (int i = 0; i < units.length; i++) {
      if (millis >= units[i]) {
        text.append(millis / units[i]).append(names[i]);
        millis %= units[i];
      }
    }
    return text.toString();
  }
}
