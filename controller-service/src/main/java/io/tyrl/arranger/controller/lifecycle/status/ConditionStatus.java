package io.tyrl.arranger.controller.lifecycle.status;

/** The {@code status} of a TYJob condition. */
public enum ConditionStatus {
  TRUE("True"),
  FALSE("False"),
  UNKNOWN("Unknown");

  private final String wireName;

  ConditionStatus(String wireName) {
    this.wireName = wireName;
  }

  public String wireName() {
    return wireName;
  }

  public static ConditionStatus fromWireNameOrUnknown(String value) {
    for (ConditionStatus status : values()) {
      if (status.wireName.equals(value)) {
        return status;
      }
    }
    return UNKNOWN;
  }
}
