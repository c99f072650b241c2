package io.tyrl.arranger.crd.contract;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 2}, {@code 16Gi}, {@code 1e3}, {@code 1.5}),
 * read exactly, with the grammar of the API machinery's quantity type.
 *
 * <p>The value stays a {@link BigDecimal} until the last step and is then rounded <em>up</em> to
 * the integer unit asked for, as Kubernetes does when it turns a quantity into an int64 — so a
 * request of {@code 0.5m} cpu never becomes a free pod. Written here once so that the controller's
 * validation and the scheduler's arithmetic agree on what a quantity is.
 */
public final class Quantities {

  private static final Pattern QUANTITY =
      Pattern.compile(
          "([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))(?:([eE][+-]?\\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E))?");

  /**
   * Beyond this a decimal exponent names no resource amount and would only make huge BigDecimals.
   */
  private static final int MAX_EXPONENT = 30;

  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
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

  /**
   * The exact value of a quantity, in its base unit (cores, bytes, devices).
   *
   * @throws IllegalArgumentException naming the value when it is not a quantity
   */
  public static BigDecimal parse(String quantity) {
    if (quantity == null) {
      throw new IllegalArgumentException("quantity must not be null");
    }
    Matcher matcher = QUANTITY.matcher(quantity);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "invalid quantity '"
              + quantity
              + "': expected a number with an optional suffix (m, k, Ki, Mi, Gi, ..., or an exponent such as e3)");
    }
    BigDecimal number = new BigDecimal(matcher.group(1));
    if (matcher.group(2) != null) {
      return number.scaleByPowerOfTen(exponent(matcher.group(2).substring(1), quantity));
    }
    if (matcher.group(3) != null) {
      return number.multiply(SUFFIXES.get(matcher.group(3)));
    }
    return number;
  }

  /** The exact value, or empty when {@code quantity} is absent or not a quantity. */
  public static Optional<BigDecimal> tryParse(String quantity) {
    try {
      return Optional.of(parse(quantity));
    } catch (IllegalArgumentException notAQuantity) {
      return Optional.empty();
    }
  }

  /** The quantity in whole base units (bytes, devices), rounded up. */
  public static long toUnits(String quantity) {
    return toLongRoundingUp(parse(quantity), quantity);
  }

  /** The quantity in thousandths of its base unit (millicores), rounded up. */
  public static long toMillis(String quantity) {
    return toLongRoundingUp(parse(quantity).movePointRight(3), quantity);
  }

  private static int exponent(String digits, String quantity) {
    int exponent;
    try {
      exponent = Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "invalid quantity '" + quantity + "': exponent out of range", e);
    }
    if (Math.abs(exponent) > MAX_EXPONENT) {
      throw new IllegalArgumentException(
          "invalid quantity '" + quantity + "': exponent out of range");
    }
    return exponent;
  }

  private static long toLongRoundingUp(BigDecimal value, String original) {
    BigDecimal rounded = value.setScale(0, RoundingMode.CEILING);
    if (rounded.abs().compareTo(MAX_LONG) > 0) {
      throw new IllegalArgumentException("invalid quantity '" + original + "': too large");
    }
    return rounded.longValueExact();
  }
}
