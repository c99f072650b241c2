package io.tyrl.arranger.scheduler.kube;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as Kubernetes writes them ("90s", "10m", "1h30m", "1.5h"), the form spec.gang.waitTime takes. */
final class GoDuration {

  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");

  private GoDuration() {}

  static Duration parse(String text, String field) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    Matcher matcher = PART.matcher(text);
    int end = 0;
    BigDecimal millis = BigDecimal.ZERO;
    while (matcher.find() && matcher.start() == end) {
      BigDecimal amount = new BigDecimal(matcher.group(1));
      long unit = switch (matcher.group(2)) {
        case "ms" -> 1;
        case "s" -> 1_000;
        case "m" -> 60_000;
        default -> 3_600_000;
      };
      millis = millis.add(amount.multiply(BigDecimal.valueOf(unit)));
      end = matcher.end();
    }
    if (end != text.length() || end == 0) {
      throw new IllegalArgumentException(field + ": '" + text + "' is not a duration such as 90s, 10m or 1h30m");
    }
    return Duration.ofMillis(millis.longValueExact());
  }
}
