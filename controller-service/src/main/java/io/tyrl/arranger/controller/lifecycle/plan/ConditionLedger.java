package io.tyrl.arranger.controller.lifecycle.plan;

import io.tyrl.arranger.controller.lifecycle.status.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Updates {@code status.conditions} the Kubernetes way: one entry per type, and {@code
 * lastTransitionTime} moves only when the condition's status changes, so re-planning an unchanged
 * job writes nothing.
 */
final class ConditionLedger {

  private ConditionLedger() {}

  static List<Condition> record(List<Condition> current, Condition update, Instant now) {
    List<Condition> next = new ArrayList<>();
    boolean replaced = false;
    for (Condition existing : current) {
      if (existing.type().equals(update.type())) {
        next.add(merge(existing, update, now));
        replaced = true;
      } else {
        next.add(existing);
      }
    }
    if (!replaced) {
      next.add(withTime(update, now));
    }
    return List.copyOf(next);
  }

  private static Condition merge(Condition existing, Condition update, Instant now) {
    if (existing.status() == update.status() && existing.lastTransitionTime().isPresent()) {
      return new Condition(
          update.type(),
          update.status(),
          update.reason(),
          update.message(),
          existing.lastTransitionTime());
    }
    return withTime(update, now);
  }

  private static Condition withTime(Condition condition, Instant now) {
    return new Condition(
        condition.type(),
        condition.status(),
        condition.reason(),
        condition.message(),
        Optional.of(now));
  }
}
