package io.tyrl.arranger.scheduler.api;

import io.tyrl.arranger.crd.contract.Quantities;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable amount of resources, in exact integer units: cpu in millicores, {@code
 * nvidia.com/gpu} in milli-GPU (so a pod may ask for a share of one device), memory and
 * ephemeral-storage in bytes, pods as a count, and every other extended resource in its own integer
 * unit. A missing name means zero; zeros are not stored, so equal amounts are equal records.
 */
public record Resource(SortedMap<String, Long> quantities) {

  public static final String CPU = "cpu";
  public static final String MEMORY = "memory";
  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";
  public static final String PODS = "pods";
  public static final String GPU = "nvidia.com/gpu";

  public static final Resource EMPTY = new Resource(new TreeMap<>());

  public Resource {
    Objects.requireNonNull(quantities, "quantities");
    TreeMap<String, Long> copy = new TreeMap<>();
    quantities.forEach(
        (name, value) -> {
          if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("resource name must not be blank");
          }
          if (value == null || value < 0) {
            throw new IllegalArgumentException(
                "resource " + name + " must not be negative, was " + value);
          }
          if (value != 0) {
            copy.put(name, value);
          }
        });
    quantities = Collections.unmodifiableSortedMap(copy);
  }

  /**
   * Parses alternating names and Kubernetes quantity strings: {@code of("cpu", "500m", "memory",
   * "1Gi")}.
   */
  public static Resource of(String... namesAndQuantities) {
    if (namesAndQuantities.length % 2 != 0) {
      throw new IllegalArgumentException(
          "expected name/quantity pairs, got an odd number of arguments");
    }
    TreeMap<String, Long> map = new TreeMap<>();
    for (int i = 0; i < namesAndQuantities.length; i += 2) {
      String name = namesAndQuantities[i];
      map.merge(name, canonicalAmount(name, namesAndQuantities[i + 1]), Math::addExact);
    }
    return new Resource(map);
  }

  /** Parses a Kubernetes resource list (name → quantity string). */
  public static Resource parse(Map<String, String> resourceList) {
    TreeMap<String, Long> map = new TreeMap<>();
    resourceList.forEach((name, quantity) -> map.put(name, canonicalAmount(name, quantity)));
    return new Resource(map);
  }

  /**
   * A quantity of the named resource in the unit this class counts it in: thousandths for cpu and
   * GPUs (millicores, milli-GPU), whole units (bytes, devices) for everything else, rounded up.
   *
   * @throws IllegalArgumentException naming the resource and the value when it is not a quantity
   */
  public static long canonicalAmount(String resourceName, String quantity) {
    try {
      return countsInMillis(resourceName)
          ? Quantities.toMillis(quantity)
          : Quantities.toUnits(quantity);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(resourceName + ": " + e.getMessage(), e);
    }
  }

  /** True for the resources counted in thousandths: cpu, and GPUs, which pods may share. */
  public static boolean countsInMillis(String resourceName) {
    return CPU.equals(resourceName) || GPU.equals(resourceName);
  }

  /** Builds from canonical units (millicores, bytes, counts). */
  public static Resource ofCanonical(Map<String, Long> canonical) {
    return new Resource(new TreeMap<>(canonical));
  }

  public long get(String name) {
    return quantities.getOrDefault(name, 0L);
  }

  public long milliCpu() {
    return get(CPU);
  }

  public long memory() {
    return get(MEMORY);
  }

  public boolean isEmpty() {
    return quantities.isEmpty();
  }

  public Resource plus(Resource other) {
    TreeMap<String, Long> sum = new TreeMap<>(quantities);
    other.quantities.forEach((name, value) -> sum.merge(name, value, Math::addExact));
    return new Resource(sum);
  }

  /** Subtracts, refusing to go below zero in any dimension (an accounting bug, not a policy). */
  public Resource minus(Resource other) {
    TreeMap<String, Long> difference = new TreeMap<>(quantities);
    other.quantities.forEach(
        (name, value) -> {
          long left = difference.getOrDefault(name, 0L) - value;
          if (left < 0) {
            throw new IllegalArgumentException(
                "cannot subtract " + other + " from " + this + ": " + name + " would be negative");
          }
          difference.put(name, left);
        });
    return new Resource(difference);
  }

  /** Subtracts, flooring each dimension at zero. */
  public Resource minusFloored(Resource other) {
    TreeMap<String, Long> difference = new TreeMap<>(quantities);
    other.quantities.forEach(
        (name, value) ->
            difference.put(name, Math.max(0, difference.getOrDefault(name, 0L) - value)));
    return new Resource(difference);
  }

  /** Every dimension multiplied by {@code factor}; refuses to overflow. */
  public Resource times(long factor) {
    TreeMap<String, Long> product = new TreeMap<>();
    quantities.forEach((name, value) -> product.put(name, Math.multiplyExact(value, factor)));
    return new Resource(product);
  }

  /** True when every dimension of this amount is at most the other's. */
  public boolean fitsIn(Resource capacity) {
    for (Map.Entry<String, Long> entry : quantities.entrySet()) {
      if (entry.getValue() > capacity.get(entry.getKey())) {
        return false;
      }
    }
    return true;
  }

  /** Per dimension maximum. */
  public Resource max(Resource other) {
    TreeMap<String, Long> result = new TreeMap<>(quantities);
    other.quantities.forEach((name, value) -> result.merge(name, value, Math::max));
    return new Resource(result);
  }

  /** Human form with Kubernetes units, e.g. {@code cpu 1500m, memory 2Gi, nvidia.com/gpu 1}. */
  @Override
  public String toString() {
    if (quantities.isEmpty()) {
      return "{}";
    }
    StringBuilder text = new StringBuilder();
    quantities.forEach(
        (name, value) -> {
          if (text.length() > 0) {
            text.append(", ");
          }
          text.append(name).append(' ').append(formatQuantity(name, value));
        });
    return text.toString();
  }

  /**
   * Several amounts of one resource that a message compares, each in the same unit: the largest
   * that states every one of them exactly ("2000m of 1500m", never "2 of 1500m").
   */
  public static List<String> formatQuantitiesAlike(String name, long... values) {
    List<String> formatted = new ArrayList<>(values.length);
    if (countsInMillis(name)) {
      boolean whole = true;
      for (long value : values) {
        whole &= value % 1000 == 0;
      }
      for (long value : values) {
        formatted.add(whole ? Long.toString(value / 1000) : value + "m");
      }
      return formatted;
    }
    long unit = 1;
    String suffix = "";
    if (MEMORY.equals(name) || EPHEMERAL_STORAGE.equals(name)) {
      long largest = 0;
      for (long value : values) {
        largest = Math.max(largest, value);
      }
      String[] units = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
      for (int i = 0; i < units.length; i++) {
        long candidate = 1L << (10 * (i + 1));
        boolean exact = largest >= candidate;
        for (long value : values) {
          exact &= value % candidate == 0;
        }
        if (exact) {
          unit = candidate;
          suffix = units[i];
        }
      }
    }
    for (long value : values) {
      formatted.add(value / unit + suffix);
    }
    return formatted;
  }

  /** One quantity in Kubernetes units: 1500m, 2, 16Gi (a GPU share as 250m). */
  public static String formatQuantity(String name, long value) {
    return formatQuantitiesAlike(name, value).get(0);
  }
}
