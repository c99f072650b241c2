package io.tyrl.arranger.scheduler.framework;

import io.tyrl.arranger.scheduler.api.ReasonCode;
import java.util.Objects;

/** Why a job is not fully placed, as an action or plugin found it. */
public record JobNote(ReasonCode reason, String message) {

  public JobNote {
    Objects.requireNonNull(reason, "reason");
    message = message == null ? "" : message;
  }
}
