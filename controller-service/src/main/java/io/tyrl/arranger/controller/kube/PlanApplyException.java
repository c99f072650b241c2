package io.tyrl.arranger.controller.kube;

/**
 * A step of a plan the API server refused or could not be reached for; the job is retried with
 * backoff.
 */
public final class PlanApplyException extends RuntimeException {

  public PlanApplyException(String message, Throwable cause) {
    super(message, cause);
  }
}
