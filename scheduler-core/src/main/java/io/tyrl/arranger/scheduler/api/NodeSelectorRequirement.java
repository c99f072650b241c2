package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;

/** One requirement of a node-affinity term: {@code key operator values}. */
public record NodeSelectorRequirement(
    String key, NodeSelectorOperator operator, List<String> values) {

  public NodeSelectorRequirement {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("node selector requirement key must not be blank");
    }
    if (operator == null) {
      throw new IllegalArgumentException(
          "node selector requirement " + key + ": operator must not be null");
    }
    values = values == null ? List.of() : List.copyOf(values);
    switch (operator) {
      case IN, NOT_IN -> {
        if (values.isEmpty()) {
          throw new IllegalArgumentException(
              "node selector requirement " + key + " " + operator + ": values must not be empty");
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!values.isEmpty()) {
          throw new IllegalArgumentException(
              "node selector requirement " + key + " " + operator + ": values must be empty");
        }
      }
      case GT, LT -> {
        if (values.size() != 1) {
          throw new IllegalArgumentException(
              "node selector requirement " + key + " " + operator + ": exactly one value expected");
        }
        try {
          Long.parseLong(values.get(0));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "node selector requirement "
                  + key
                  + " "
                  + operator
                  + ": value '"
                  + values.get(0)
                  + "' is not an integer",
              e);
        }
      }
      default -> throw new IllegalStateException("unhandled operator " + operator);
    }
  }

  public static NodeSelectorRequirement of(
      String key, NodeSelectorOperator operator, String... values) {
    return new NodeSelectorRequirement(key, operator, List.of(values));
  }

  public boolean matches(Map<String, String> labels) {
    String label = labels.get(key);
    return switch (operator) {
      case IN -> label != null && values.contains(label);
      case NOT_IN -> label == null || !values.contains(label);
      case EXISTS -> label != null;
      case DOES_NOT_EXIST -> label == null;
      case GT -> compareAsInteger(label) > 0;
      case LT -> compareAsInteger(label) < 0;
    };
  }

  /**
   * Compares the label with the single value; a missing or non-integer label matches neither Gt nor
   * Lt.
   */
  private int compareAsInteger(String label) {
    if (label == null) {
      return 0;
    }
    try {
      return Long.compare(Long.parseLong(label), Long.parseLong(values.get(0)));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
