package io.tyrl.arranger.kube;

/** A status patch the API server refused, or that still failed after every retry. */
public final class StatusPatchException extends RuntimeException {

  private final int httpCode;

  public StatusPatchException(String message, int httpCode, Throwable cause) {
    super(message, cause);
    this.httpCode = httpCode;
  }

  /** The last HTTP status, or 0 when the API server could not be reached. */
  public int httpCode() {
    return httpCode;
  }
}
