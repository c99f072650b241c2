package io.tyrl.arranger.controller.lifecycle.plan;

/** The {@code type} of a Kubernetes Event. */
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
