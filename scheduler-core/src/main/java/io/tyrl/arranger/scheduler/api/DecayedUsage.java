package io.tyrl.arranger.scheduler.api;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a queue (or a namespace inside a leaf queue) has held over time: per resource, the amount
 * held integrated over seconds, each second's part halved every half-life since — in
 * resource-seconds of the resource's own unit (cpu in cores, memory in bytes, a GPU as 1), as it
 * stood at {@code asOf}.
 *
 * <p>Kept in slots by the time it was held, so that with a window the slots that have left it are
 * dropped: each slot's amount is decayed to {@code asOf} like the rest. Without a window there is
 * one slot. A slot is dropped whole once its end has left the window, so what is forgotten is
 * forgotten up to one slot's width ({@value #SLOTS_PER_WINDOW} per window) late, never early.
 *
 * @param asOf when the amounts were last brought up to date; null = no history yet
 * @param slots oldest first
 */
public record DecayedUsage(Instant asOf, List<Slot> slots) {

  /** How many slots a window is cut into: how finely usage leaves it. */
  public static final int SLOTS_PER_WINDOW = 12;

  /** No history: a queue without stored usage. */
  public static final DecayedUsage NONE = new DecayedUsage(null, List.of());

  /** Below this a resource's amount is dropped: it no longer tells queues apart. */
  private static final double NEGLIGIBLE = 1e-6;

  /**
   * Resource-seconds held from {@code start} on, until the next slot's start.
   *
   * @param resourceSeconds by resource name; every amount finite and not negative
   */
  public record Slot(Instant start, SortedMap<String, Double> resourceSeconds) {
    public Slot {
      Objects.requireNonNull(start, "start");
      TreeMap<String, Double> copy = new TreeMap<>();
      resourceSeconds.forEach(
          (name, amount) -> {
            if (amount == null || !Double.isFinite(amount) || amount < 0) {
              throw new IllegalArgumentException(
                  "usage of " + name + " must be a finite amount >= 0, was " + amount);
            }
            if (amount > NEGLIGIBLE) {
              copy.put(name, amount);
            }
          });
      resourceSeconds = Collections.unmodifiableSortedMap(copy);
    }
  }

  public DecayedUsage {
    slots = List.copyOf(slots);
    if (asOf == null && !slots.isEmpty()) {
      throw new IllegalArgumentException("usage with slots must say when it was taken (asOf)");
    }
  }

  /** Per resource, the total over the slots. */
  public SortedMap<String, Double> total() {
    TreeMap<String, Double> total = new TreeMap<>();
    for (Slot slot : slots) {
      slot.resourceSeconds().forEach((name, amount) -> total.merge(name, amount, Double::sum));
    }
    return Collections.unmodifiableSortedMap(total);
  }

  /** The total of one resource; 0 when none was held. */
  public double total(String resource) {
    double sum = 0;
    for (Slot slot : slots) {
      sum += slot.resourceSeconds().getOrDefault(resource, 0.0);
    }
    return sum;
  }

  /**
   * The usage at {@code now}: what was recorded, decayed by the time since {@code asOf}, plus
   * {@code held} for that time (held all along, each second decayed since it passed: {@code held ×
   * h/ln2 × (1 − 2^(−Δt/h))}, so one step of an hour and sixty of a minute give the same), less
   * what has left the window. With no history yet, history starts now: nothing is known of before.
   *
   * @param window null = none: usage decays but is never cut off
   */
  public DecayedUsage advance(Resource held, Instant now, Duration halfLife, Duration window) {
    if (asOf == null) {
      return new DecayedUsage(now, List.of());
    }
    double elapsed = seconds(Duration.between(asOf, now));
    if (elapsed <= 0) {
      return this;
    }
    double halfLifeSeconds = seconds(halfLife);
    double decay = Math.pow(0.5, elapsed / halfLifeSeconds);
    double integral = halfLifeSeconds / Math.log(2) * (1 - decay);
    List<Slot> advanced = new ArrayList<>(slots.size() + 1);
    for (Slot slot : slots) {
      TreeMap<String, Double> decayed = new TreeMap<>();
      slot.resourceSeconds().forEach((name, amount) -> decayed.put(name, amount * decay));
      advanced.add(new Slot(slot.start(), decayed));
    }
    TreeMap<String, Double> added = new TreeMap<>();
    held.quantities()
        .forEach(
            (name, amount) -> {
              if (!Resource.PODS.equals(name)) {
                added.put(name, amount / unitsPerQuantity(name) * integral);
              }
            });
    Instant slotStart = window == null ? firstStart(now) : slotStart(now, window);
    if (window == null) {
      advanced = merged(advanced, slotStart);
    }
    Slot last = advanced.isEmpty() ? null : advanced.get(advanced.size() - 1);
    if (last != null && last.start().equals(slotStart)) {
      TreeMap<String, Double> sum = new TreeMap<>(last.resourceSeconds());
      added.forEach((name, amount) -> sum.merge(name, amount, Double::sum));
      advanced.set(advanced.size() - 1, new Slot(slotStart, sum));
    } else {
      advanced.add(new Slot(slotStart, added));
    }
    if (window != null) {
      Duration width = window.dividedBy(SLOTS_PER_WINDOW);
      Instant windowStart = now.minus(window);
      advanced.removeIf(slot -> !slot.start().plus(width).isAfter(windowStart));
    }
    advanced.removeIf(slot -> slot.resourceSeconds().isEmpty());
    return new DecayedUsage(now, advanced);
  }

  private Instant firstStart(Instant now) {
    return slots.isEmpty() ? now : slots.get(0).start();
  }

  /** All slots as one, starting at {@code start}: what a window that is switched off leaves. */
  private static List<Slot> merged(List<Slot> slots, Instant start) {
    if (slots.size() <= 1) {
      return slots;
    }
    TreeMap<String, Double> sum = new TreeMap<>();
    for (Slot slot : slots) {
      slot.resourceSeconds().forEach((name, amount) -> sum.merge(name, amount, Double::sum));
    }
    List<Slot> one = new ArrayList<>();
    one.add(new Slot(start, sum));
    return one;
  }

  /** Slots are aligned on whole widths since the epoch, so every writer cuts them alike. */
  private static Instant slotStart(Instant now, Duration window) {
    long width = Math.max(1, window.dividedBy(SLOTS_PER_WINDOW).toMillis());
    long millis = now.toEpochMilli();
    return Instant.ofEpochMilli(Math.floorDiv(millis, width) * width);
  }

  /**
   * The seconds over which a queue that always held the whole cluster would have gathered its
   * usage: {@code h/ln2} without a window, {@code h/ln2 × (1 − 2^(−W/h))} with one. A queue's usage
   * over this, divided by the cluster's size, is the share of the cluster it held on (decayed)
   * average.
   */
  public static double horizonSeconds(Duration halfLife, Duration window) {
    double h = seconds(halfLife);
    double full = h / Math.log(2);
    return window == null ? full : full * (1 - Math.pow(0.5, seconds(window) / h));
  }

  /**
   * The share of the cluster's {@code resource} this usage amounts to on (decayed) average: 1 for
   * holding all of it over the whole horizon ({@link #horizonSeconds}); 0 for a cluster without the
   * resource.
   *
   * @param capacity the cluster's total of the resource, in {@link Resource}'s units
   */
  public double clusterShare(String resource, long capacity, Duration halfLife, Duration window) {
    if (capacity <= 0) {
      return 0;
    }
    return total(resource)
        / (capacity / unitsPerQuantity(resource) * horizonSeconds(halfLife, window));
  }

  /**
   * How many of {@link Resource}'s units make one of the usage's: cpu and GPUs are counted in
   * thousandths there and in cores and whole GPUs here.
   */
  public static double unitsPerQuantity(String resource) {
    return Resource.countsInMillis(resource) ? 1000.0 : 1.0;
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
