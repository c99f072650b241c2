package io.tyrl.arranger.crd.reasons;

/**
 * The {@code type} of a core/v1 Event: what both services record, and what a reason is recorded as.
 */
public enum EventType {
  NORMAL("Normal"),
  WARNING("Warning");

  private final String wireName;

  EventType(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }
}
