package io.tyrl.arranger.controller.lifecycle.validation;

import io.tyrl.arranger.crd.bounds.TYJobBounds;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * RFC 1123 labels, the form Kubernetes requires of pod names used as host names and of label
 * values.
 */
final class DnsLabel {

  static final int MAX_LENGTH = TYJobBounds.MAX_DNS_LABEL_LENGTH;
  private static final Pattern LABEL = Pattern.compile(TYJobBounds.DNS_LABEL_PATTERN);

  private DnsLabel() {}

  /** Why {@code value} is not a DNS label, or empty if it is one. */
  static Optional<String> problemWith(String value) {
    if (value.isEmpty()) {
      return Optional.of("must not be empty");
    }
    if (value.length() > MAX_LENGTH) {
      return Optional.of(
          "\"%s\" is %d characters long, more than the %d allowed"
              .formatted(value, value.length(), MAX_LENGTH));
    }
    if (!LABEL.matcher(value).matches()) {
      return Optional.of(
          ("\"%s\" is not a DNS label: use lower-case letters, digits and '-', "
                  + "starting and ending with a letter or digit")
              .formatted(value));
    }
    return Optional.empty();
  }
}
