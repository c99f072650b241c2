package io.tyrl.arranger.kube.events;

/** The {@code type} of a core/v1 Event. */
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
