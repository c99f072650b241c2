package io.tyrl.arranger.scheduler.api;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Kubernetes quantity strings ("500m", "2", "16Gi", "1e3", "1.5") exactly.
 *
 * <p>The value is kept as a {@link BigDecimal} until the last step and then rounded <em>up</em> to
 * the integer unit the scheduler counts in, as Kubernetes does when it turns a quantity into an
 * int64 — so a request of "0.5m" cpu never becomes a free pod.
 */
public final class Quantities {

  private static final Pattern QUANTITY =
      Pattern.compile("^([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))(?:([eE][+-]?\\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?$");

  private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
      Map.entry("Ki", new BigDecimal(BigInteger.TWO.pow(10))),
      Map.entry("Mi", new BigDecimal(BigInteger.TWO.pow(20))),
      Map.entry("Gi", new BigDecimal(BigInteger.TWO.pow(30))),
      Map.entry("Ti", new BigDecimal(BigInteger.TWO.pow(40))),
      Map.entry("Pi", new BigDecimal(BigInteger.TWO.pow(50))),
      Map.entry("Ei", new BigDecimal(BigInteger.TWO.pow(60))),
      Map.entry("n", new BigDecimal("1e-9")),
      Map.entry("u", new BigDecimal("1e-6")),
      Map.entry("m", new BigDecimal("1e-3")),
      Map.entry("k", new BigDecimal("1e3")),
      Map.entry("M", new BigDecimal("1e6")),
      Map.entry("G", new BigDecimal("1e9")),
      Map.entry("T", new BigDecimal("1e12")),
      Map.entry("P", new BigDecimal("1e15")),
      Map.entry("E", new BigDecimal("1e18")));

  private static final BigDecimal MAX_LONG = BigDecimal.valueOf(Long.MAX_VALUE);

  private Quantities() {}

  /** The exact value of a quantity, in its base unit (cores, bytes, devices). */
  public static BigDecimal parse(String quantity) {
    if (quantity == null) {
      throw new IllegalArgumentException("quantity must not be null");
    }
    Matcher matcher = QUANTITY.matcher(quantity.trim());
    if (!matcher.matches()) {
      throw new IllegalArgumentException("invalid quantity '" + quantity
          + "': expected a number with an optional suffix (m, k, Ki, Mi, Gi, ..., or an exponent such as e3)");
    }
    BigDecimal number = new BigDecimal(matcher.group(1));
    if (matcher.group(2) != null) {
      int exponent;
      try {
        exponent = Integer.parseInt(matcher.group(2).substring(1));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("invalid quantity '" + quantity + "': exponent out of range", e);
      }
      if (Math.abs(exponent) > 30) {
        throw new IllegalArgumentException("invalid quantity '" + quantity + "': exponent out of range");
      }
      return number.scaleByPowerOfTen(exponent);
    }
    if (matcher.group(3) != null) {
      return number.multiply(SUFFIXES.get(matcher.group(3)));
    }
    return number;
  }

  /** The quantity in whole base units (bytes, devices), rounded up. */
  public static long toUnits(String quantity) {
    return toLongRoundingUp(parse(quantity), quantity);
  }

  /** The quantity in thousandths of its base unit (millicores), rounded up. */
  public static long toMillis(String quantity) {
    return toLongRoundingUp(parse(quantity).movePointRight(3), quantity);
  }

  /** The quantity in the unit {@link Resource} counts the named resource in. */
  public static long toCanonical(String resourceName, String quantity) {
    try {
      return Resource.CPU.equals(resourceName) ? toMillis(quantity) : toUnits(quantity);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(resourceName + ": " + e.getMessage(), e);
    }
  }

  private static long toLongRoundingUp(BigDecimal value, String original) {
    BigDecimal rounded = value.setScale(0, RoundingMode.CEILING);
    if (rounded.abs().compareTo(MAX_LONG) > 0) {
      throw new IllegalArgumentException("invalid quantity '" + original + "': too large");
    }
    return rounded.longValueExact();
  }
}
