package io.tyrl.arranger.scheduler.conf;

import io.tyrl.arranger.scheduler.api.EnumNames;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A typed, defaulted, validated plugin or action argument. {@link #convert} turns a raw YAML value
 * into {@code T} or throws {@link IllegalArgumentException} saying what was expected.
 */
public final class ArgumentSpec<T> {

  private static final Pattern GO_DURATION = Pattern.compile("^(\\d+)(ms|s|m|h)$");

  private final String name;
  private final T defaultValue;
  private final Function<Object, T> converter;
  private final String expectation;

  private ArgumentSpec(
      String name, T defaultValue, Function<Object, T> converter, String expectation) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("argument name must not be blank");
    }
    this.name = name;
    this.defaultValue = Objects.requireNonNull(defaultValue, "default of argument " + name);
    this.converter = converter;
    this.expectation = expectation;
  }

  public String name() {
    return name;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public T convert(Object raw) {
    if (raw == null) {
      throw new IllegalArgumentException("expected " + expectation + ", got nothing");
    }
    return converter.apply(raw);
  }

  public static ArgumentSpec<Integer> integer(String name, int defaultValue, int min, int max) {
    String expectation = "an integer within " + min + ".." + max;
    return new ArgumentSpec<>(
        name,
        defaultValue,
        raw -> {
          if (!(raw instanceof Integer || raw instanceof Long)
              && !(raw instanceof String text && text.trim().matches("-?\\d+"))) {
            throw new IllegalArgumentException("expected " + expectation + ", got '" + raw + "'");
          }
          long value = Long.parseLong(raw.toString().trim());
          if (value < min || value > max) {
            throw new IllegalArgumentException("expected " + expectation + ", got " + value);
          }
          return (int) value;
        },
        expectation);
  }

  public static ArgumentSpec<Double> decimal(
      String name, double defaultValue, double min, double max) {
    String expectation = "a number within " + min + ".." + max;
    return new ArgumentSpec<>(
        name,
        defaultValue,
        raw -> {
          double value;
          if (raw instanceof Number number) {
            value = number.doubleValue();
          } else {
            try {
              value = Double.parseDouble(raw.toString().trim());
            } catch (NumberFormatException e) {
              throw new IllegalArgumentException(
                  "expected " + expectation + ", got '" + raw + "'", e);
            }
          }
          if (!(value >= min && value <= max)) {
            throw new IllegalArgumentException("expected " + expectation + ", got " + raw);
          }
          return value;
        },
        expectation);
  }

  /**
   * A positive duration written as {@code 90s}, {@code 5m}, {@code 1h}, {@code 250ms} or ISO-8601
   * ({@code PT5M}).
   */
  public static ArgumentSpec<Duration> duration(String name, Duration defaultValue) {
    String expectation = "a positive duration such as 90s, 5m, 1h or PT5M";
    return new ArgumentSpec<>(
        name,
        defaultValue,
        raw -> {
          String text = raw.toString().trim();
          Duration value;
          Matcher matcher = GO_DURATION.matcher(text);
          if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            value =
                switch (matcher.group(2)) {
                  case "ms" -> Duration.ofMillis(amount);
                  case "s" -> Duration.ofSeconds(amount);
                  case "m" -> Duration.ofMinutes(amount);
                  default -> Duration.ofHours(amount);
                };
          } else {
            try {
              value = Duration.parse(text);
            } catch (DateTimeParseException e) {
              throw new IllegalArgumentException(
                  "expected " + expectation + ", got '" + raw + "'", e);
            }
          }
          if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("expected " + expectation + ", got '" + raw + "'");
          }
          return value;
        },
        expectation);
  }

  /**
   * One of {@code allowed}, written as {@code spelling} names it ("BinPack"); case, '_' and '-' do
   * not matter, so "BIN_PACK" reads as BinPack too.
   */
  public static <T> ArgumentSpec<T> oneOf(
      String name, T defaultValue, List<T> allowed, Function<T, String> spelling) {
    List<T> values = List.copyOf(allowed);
    String expectation =
        "one of " + values.stream().map(spelling).collect(Collectors.joining(", "));
    return new ArgumentSpec<>(
        name,
        defaultValue,
        raw -> {
          String written = raw.toString().trim();
          for (T value : values) {
            if (EnumNames.sameSpelling(spelling.apply(value), written)) {
              return value;
            }
          }
          throw new IllegalArgumentException("expected " + expectation + ", got '" + raw + "'");
        },
        expectation);
  }

  @Override
  public String toString() {
    return name + " (" + expectation + ", default " + defaultValue + ")";
  }
}
