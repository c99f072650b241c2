package io.tyrl.arranger.controller.lifecycle.validation;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Kubernetes resource quantities ({@code 500m}, {@code 2Gi}, {@code 1.5}, {@code 1e3}) into
 * exact values, following the grammar of {@code k8s.io/apimachinery/pkg/api/resource}. Kept here so
 * the lifecycle core need not depend on the Kubernetes client to check a template.
 */
public final class KubernetesQuantity {

  private static final Pattern QUANTITY = Pattern.compile(
      "([+-]?)([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]{1,3})?");
  private static final BigDecimal KI = BigDecimal.valueOf(1024);
  private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
      Map.entry("Ki", KI),
      Map.entry("Mi", KI.pow(2)),
      Map.entry("Gi", KI.pow(3)),
      Map.entry("Ti", KI.pow(4)),
      Map.entry("Pi", KI.pow(5)),
      Map.entry("Ei", KI.pow(6)),
      Map.entry("m", BigDecimal.ONE.scaleByPowerOfTen(-3)),
      Map.entry("k", BigDecimal.ONE.scaleByPowerOfTen(3)),
      Map.entry("M", BigDecimal.ONE.scaleByPowerOfTen(6)),
      Map.entry("G", BigDecimal.ONE.scaleByPowerOfTen(9)),
      Map.entry("T", BigDecimal.ONE.scaleByPowerOfTen(12)),
      Map.entry("P", BigDecimal.ONE.scaleByPowerOfTen(15)),
      Map.entry("E", BigDecimal.ONE.scaleByPowerOfTen(18)));

  private KubernetesQuantity() {}

  /** The exact value of {@code text}, or empty if it is not a quantity. */
  public static Optional<BigDecimal> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    Matcher matcher = QUANTITY.matcher(text);
    if (!matcher.matches()) {
      return Optional.empty();
    }
    BigDecimal number = new BigDecimal(matcher.group(2).endsWith(".") ? matcher.group(2) + "0" : matcher.group(2));
    if (matcher.group(1).equals("-")) {
      number = number.negate();
    }
    String suffix = matcher.group(3);
    if (suffix == null || suffix.isEmpty()) {
      return Optional.of(number);
    }
    if (SUFFIXES.containsKey(suffix)) {
      return Optional.of(number.multiply(SUFFIXES.get(suffix)));
    }
    // The pattern admits only a decimal exponent here, and at most three digits of it, so it fits an int.
    return Optional.of(number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1))));
  }
}
