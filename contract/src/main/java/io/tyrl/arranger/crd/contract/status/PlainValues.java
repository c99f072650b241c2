package io.tyrl.arranger.crd.contract.status;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Lenient reads from JSON-ready plain values (maps, lists, strings, numbers, booleans): a value of
 * the wrong type reads as absent, so one garbled field never fails the read of a whole status.
 */
final class PlainValues {

  private PlainValues() {}

  static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> map ? map : Map.of();
  }

  /**
   * The entries of a list that are maps; an entry of another type reads as an empty map, so entries
   * keep their places.
   */
  static List<Map<?, ?>> maps(Object value) {
    if (!(value instanceof List<?> list)) {
      return List.of();
    }
    List<Map<?, ?>> maps = new ArrayList<>(list.size());
    list.forEach(item -> maps.add(map(item)));
    return maps;
  }

  /** A scalar as its text (a number or boolean as written); anything else is absent. */
  static Optional<String> text(Object value) {
    return value instanceof String || value instanceof Number || value instanceof Boolean
        ? Optional.of(value.toString())
        : Optional.empty();
  }

  /** The scalar entries of a list, as text. */
  static List<String> texts(Object value) {
    if (!(value instanceof List<?> list)) {
      return List.of();
    }
    List<String> texts = new ArrayList<>(list.size());
    list.forEach(item -> text(item).ifPresent(texts::add));
    return texts;
  }

  static Optional<Instant> instant(Object value) {
    try {
      return text(value).map(Instant::parse);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
