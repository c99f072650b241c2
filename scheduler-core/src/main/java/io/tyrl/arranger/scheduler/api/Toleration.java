package io.tyrl.arranger.scheduler.api;

/**
 * A pod toleration, with Kubernetes semantics: an empty key with operator Exists tolerates every
 * taint; a null effect matches every effect.
 */
public record Toleration(String key, Operator operator, String value, TaintEffect effect) {

  public enum Operator {
    EQUAL,
    EXISTS
  }

  public Toleration {
    key = key == null ? "" : key;
    operator = operator == null ? Operator.EQUAL : operator;
    value = value == null ? "" : value;
    if (key.isEmpty() && operator != Operator.EXISTS) {
      throw new IllegalArgumentException("toleration with an empty key must use operator Exists");
    }
  }

  public static Toleration equal(String key, String value, TaintEffect effect) {
    return new Toleration(key, Operator.EQUAL, value, effect);
  }

  public static Toleration exists(String key, TaintEffect effect) {
    return new Toleration(key, Operator.EXISTS, "", effect);
  }

  public boolean tolerates(Taint taint) {
    if (effect != null && effect != taint.effect()) {
      return false;
    }
    if (key.isEmpty()) {
      return true;
    }
    if (!key.equals(taint.key())) {
      return false;
    }
    return operator == Operator.EXISTS || value.equals(taint.value());
  }
}
